/* See name_subst.h. */
#define _POSIX_C_SOURCE 200809L
#include "analyse/name_subst.h"
#include "util/cmdutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_GROUPS 10

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *p, size_t n)
{
    cu_grow(&b->s, &b->cap, b->n + n + 1, 1);
    memcpy(b->s + b->n, p, n);
    b->n += n;
    b->s[b->n] = 0;
}

/* One '/'-terminated part of the expression, from *p: '\/' becomes '/',
 * other escapes stay for regcomp or the replacement. NULL when no
 * unescaped '/' ends it. */
static char *part(const char **p)
{
    sbuf_t b = {0};
    const char *s = *p;
    sb_add(&b, "", 0);
    for (; *s && *s != '/'; s++) {
        if (s[0] == '\\' && s[1] == '/') {
            sb_add(&b, "/", 1);
            s++;
        } else if (s[0] == '\\' && s[1]) {
            sb_add(&b, s, 2);
            s++;
        } else {
            sb_add(&b, s, 1);
        }
    }
    if (*s != '/') {
        free(b.s);
        return NULL;
    }
    *p = s + 1;
    return b.s;
}

/* The highest group REPL refers to, -1 if none. */
static int max_group(const char *repl)
{
    int m = -1;
    for (const char *s = repl; *s; s++)
        if ((s[0] == '\\' || s[0] == '$') && s[1] >= '0' && s[1] <= '9') {
            if (s[1] - '0' > m)
                m = s[1] - '0';
            s++;
        } else if (s[0] == '\\' && s[1]) {
            s++;
        }
    return m;
}

int ns_parse(const char *expr, name_subst_t *s, char *why, size_t len)
{
    memset(s, 0, sizeof *s);
    s->expr = expr;
    if (expr[0] != 's' || expr[1] != '/') {
        snprintf(why, len, "'%s' is not of the form s/REGEX/REPLACEMENT/", expr);
        return -1;
    }
    const char *p = expr + 2;
    char *pat = part(&p), *repl = pat ? part(&p) : NULL;
    if (!pat || !repl) {
        snprintf(why, len, "'%s': missing '/' (write a '/' inside the "
                 "expression as '\\/')", expr);
        goto fail;
    }
    if (!*pat) {
        snprintf(why, len, "'%s': empty regular expression", expr);
        goto fail;
    }
    int flags = REG_EXTENDED, seen_i = 0;
    for (; *p; p++) {
        if (*p == 'g' && !s->global) {
            s->global = 1;
        } else if (*p == 'i' && !seen_i) {
            seen_i = 1;
            flags |= REG_ICASE;
        } else {
            snprintf(why, len, "'%s': unknown or repeated flag '%c' (flags: "
                     "g, i)", expr, *p);
            goto fail;
        }
    }
    int rc = regcomp(&s->re, pat, flags);
    if (rc != 0) {
        char msg[128];
        regerror(rc, &s->re, msg, sizeof msg);
        snprintf(why, len, "'%s': %s", expr, msg);
        goto fail;
    }
    int mg = max_group(repl);
    if (mg > (int)s->re.re_nsub) {
        snprintf(why, len, "'%s': the replacement refers to group %d, the "
                 "regular expression has %zu", expr, mg, s->re.re_nsub);
        regfree(&s->re);
        goto fail;
    }
    free(pat);
    s->repl = repl;
    return 0;
fail:
    free(pat);
    free(repl);
    s->repl = NULL;
    return -1;
}

static void expand(sbuf_t *b, const char *repl, const char *subject,
                   const regmatch_t *m)
{
    for (const char *r = repl; *r; r++) {
        if ((r[0] == '\\' || r[0] == '$') && r[1] >= '0' && r[1] <= '9') {
            const regmatch_t *g = &m[r[1] - '0'];
            if (g->rm_so >= 0)
                sb_add(b, subject + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
            r++;
        } else if (r[0] == '\\' && r[1]) {
            sb_add(b, r + 1, 1);
            r++;
        } else {
            sb_add(b, r, 1);
        }
    }
}

char *ns_apply(const name_subst_t *s, const char *name)
{
    sbuf_t b = {0};
    size_t len = strlen(name), pos = 0;
    sb_add(&b, "", 0);
    while (pos <= len) {
        regmatch_t m[NS_GROUPS];
        const char *at = name + pos;
        if (regexec(&s->re, at, NS_GROUPS, m, pos ? REG_NOTBOL : 0) != 0)
            break;
        sb_add(&b, at, (size_t)m[0].rm_so);
        expand(&b, s->repl, at, m);
        pos += (size_t)m[0].rm_eo;
        if (m[0].rm_eo == m[0].rm_so) {
            /* An empty match: step over one character, or the next
             * search would find the same place again. */
            if (pos < len)
                sb_add(&b, name + pos, 1);
            pos++;
        }
        if (!s->global)
            break;
    }
    if (pos < len)
        sb_add(&b, name + pos, len - pos);
    return b.s;
}

void ns_free(name_subst_t *s)
{
    if (s->repl) {
        regfree(&s->re);
        free(s->repl);
        s->repl = NULL;
    }
}
