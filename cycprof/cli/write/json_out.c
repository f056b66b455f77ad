/* See json_out.h. */
#include "write/json_out.h"

#include <math.h>
#include <string.h>

/* A comma before every element but the first of its container. */
static void sep(json_t *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (!j->first[j->depth])
        fputc(',', j->out);
    j->first[j->depth] = 0;
}

static void open(json_t *j, char c)
{
    sep(j);
    fputc(c, j->out);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->first[j->depth] = 1;
}

static void close_(json_t *j, char c)
{
    fputc(c, j->out);
    if (j->depth > 0)
        j->depth--;
}

void json_begin(json_t *j, FILE *out)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    j->first[0] = 1;
    json_open_obj(j);
}

void json_end(json_t *j)
{
    json_close_obj(j);
    fputc('\n', j->out);
}

void json_open_obj(json_t *j) { open(j, '{'); }
void json_close_obj(json_t *j) { close_(j, '}'); }
void json_open_arr(json_t *j) { open(j, '['); }
void json_close_arr(json_t *j) { close_(j, ']'); }

/* Length of a valid UTF-8 sequence at s, or 0. */
static int utf8_len(const unsigned char *s)
{
    int n;
    unsigned min;
    unsigned cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0)
        n = 2, cp = s[0] & 0x1f, min = 0x80;
    else if ((s[0] & 0xf0) == 0xe0)
        n = 3, cp = s[0] & 0x0f, min = 0x800;
    else if ((s[0] & 0xf8) == 0xf0)
        n = 4, cp = s[0] & 0x07, min = 0x10000;
    else
        return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void json_str(json_t *j, const char *str)
{
    if (!str) {
        json_null(j);
        return;
    }
    sep(j);
    fputc('"', j->out);
    for (const unsigned char *s = (const unsigned char *)str; *s;) {
        int n = utf8_len(s);
        if (n == 0) {
            fputs("\\ufffd", j->out);
            s++;
        } else if (*s == '"' || *s == '\\') {
            fputc('\\', j->out);
            fputc(*s++, j->out);
        } else if (*s < 0x20 || *s == 0x7f) {
            fprintf(j->out, "\\u%04x", *s++);
        } else {
            fwrite(s, 1, (size_t)n, j->out);
            s += n;
        }
    }
    fputc('"', j->out);
}

void json_key(json_t *j, const char *key)
{
    json_str(j, key);
    fputc(':', j->out);
    j->after_key = 1;
}

void json_u64(json_t *j, uint64_t v)
{
    sep(j);
    fprintf(j->out, "%llu", (unsigned long long)v);
}

void json_i64(json_t *j, int64_t v)
{
    sep(j);
    fprintf(j->out, "%lld", (long long)v);
}

void json_num(json_t *j, double v)
{
    if (!isfinite(v)) {
        json_null(j);
        return;
    }
    sep(j);
    fprintf(j->out, "%.6g", v);
}

void json_bool(json_t *j, int v)
{
    sep(j);
    fputs(v ? "true" : "false", j->out);
}

void json_null(json_t *j)
{
    sep(j);
    fputs("null", j->out);
}
