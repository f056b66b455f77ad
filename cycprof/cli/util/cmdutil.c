/* See cmdutil.h. */
#define _POSIX_C_SOURCE 200809L
#include "util/cmdutil.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cu_output_is_stdout = 1;

/* Length of the control character at s (C0, DEL, or C1 as UTF-8), else 0. */
static size_t control_len(const unsigned char *s)
{
    if (s[0] < 0x20 || s[0] == 0x7f)
        return 1;
    if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
        return 2;
    return 0;
}

/* s with its control characters as \xNN (malloc'd), or NULL when it has
 * none. */
static char *escape_controls(const char *s)
{
    size_t n = 0, extra = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (control_len(p))
            extra += 4;
    if (!extra)
        return NULL;
    char *out = cu_malloc(strlen(s) + extra + 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = control_len(p);
        if (k == 0) {
            out[n++] = (char)*p++;
            continue;
        }
        unsigned v = k == 1 ? p[0] : p[1];
        n += (size_t)sprintf(out + n, "\\x%02x", v);
        p += k;
    }
    out[n] = '\0';
    return out;
}

int cu_escaping_for_terminal(void)
{
    return cu_output_is_stdout && isatty(STDOUT_FILENO);
}

char *cu_escaped_for_terminal(const char *s)
{
    return s ? escape_controls(s) : NULL;
}

void cu_escape_strings_for_terminal(char **strs, size_t n)
{
    if (!cu_escaping_for_terminal())
        return;
    for (size_t i = 0; i < n; i++) {
        char *e = cu_escaped_for_terminal(strs[i]);
        if (e) {
            free(strs[i]);
            strs[i] = e;
        }
    }
}

void cu_err(const char *cmd, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *e = isatty(STDERR_FILENO) ? escape_controls(msg) : NULL;
    fprintf(stderr, "cycprof %s: %s\n", cmd, e ? e : msg);
    free(e);
}

int cu_fail_named(char *err, size_t errlen, const char *name,
                  const char *fmt, ...)
{
    char msg[CU_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s: %s", name, msg);
    return -1;
}

static const char *oom_cmd, *oom_name;
static void (*oom_cleanup)(void);

void cu_oom_names(const char *cmd, const char *name)
{
    oom_cmd = cmd;
    oom_name = name;
}

void cu_at_oom(void (*cleanup)(void))
{
    oom_cleanup = cleanup;
}

/* Status 1, as for any input too large to handle: 2 means bad usage. */
void cu_oom(void)
{
    if (oom_cleanup)
        oom_cleanup();
    if (oom_cmd)
        fprintf(stderr, "cycprof %s: %s: out of memory\n", oom_cmd, oom_name);
    else
        fputs("cycprof: out of memory\n", stderr);
    exit(1);
}

void *cu_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        cu_oom();
    return p;
}

void *cu_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        cu_oom();
    return p;
}

void *cu_realloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        cu_oom();
    return p;
}

char *cu_strdup(const char *s)
{
    return cu_strndup(s, strlen(s));
}

char *cu_strndup(const char *s, size_t n)
{
    char *p = cu_malloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

size_t cu_grown_cap(size_t cap, size_t need, size_t elem)
{
    size_t nc = cap ? cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem)
            return 0;
        nc *= 2;
    }
    return nc;
}

void cu_grow(void *arr, size_t *cap, size_t need, size_t elem)
{
    void **a = arr;
    if (need <= *cap)
        return;
    size_t nc = cu_grown_cap(*cap, need, elem);
    void *p = nc ? realloc(*a, nc * elem) : NULL;
    if (!p)
        cu_oom();
    *a = p;
    *cap = nc;
}

int cu_parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int cu_parse_pct(const char *s, double *out)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s)
        return -1;
    if (*end == '%')
        end++;
    if (*end || !(v >= 0) || v > 1e9)
        return -1;
    *out = v;
    return 0;
}

char *cu_commify(uint64_t v, char *buf)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    int o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = 0;
    return buf;
}

char *cu_commify_signed(int64_t v, char *buf)
{
    if (v == 0) {
        strcpy(buf, "0");
        return buf;
    }
    /* Negate via unsigned so INT64_MIN does not overflow. */
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    buf[0] = v < 0 ? '-' : '+';
    cu_commify(mag, buf + 1);
    return buf;
}

char *cu_pct(uint64_t a, uint64_t b, char *buf, size_t len)
{
    double p = b ? (double)a * 100.0 / (double)b : 0.0;
    snprintf(buf, len, "%.1f%%", p);
    return buf;
}

int cu_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

char *cu_newest_profile(void)
{
    DIR *d = opendir(".");
    if (!d)
        return NULL;
    char *best = NULL;
    struct timespec best_t = {0, 0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        /* Not the pprof file, nor the stacks dump kept beside it. */
        if (strncmp(e->d_name, "cycprof.out.", 12) != 0 ||
            cu_ends_with(e->d_name, ".pb.gz") ||
            strstr(e->d_name, ".pb.gz.stacks."))
            continue;
        if (stat(e->d_name, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        /* Ties (same mtime) go to the larger name, i.e. usually the later
         * pid, so the choice does not depend on readdir order. */
        int newer = !best || st.st_mtim.tv_sec > best_t.tv_sec ||
                    (st.st_mtim.tv_sec == best_t.tv_sec &&
                     (st.st_mtim.tv_nsec > best_t.tv_nsec ||
                      (st.st_mtim.tv_nsec == best_t.tv_nsec &&
                       strcmp(e->d_name, best) > 0)));
        if (newer) {
            free(best);
            best = cu_strdup(e->d_name);
            best_t = st.st_mtim;
        }
    }
    closedir(d);
    return best;
}

int cu_opt_value(int argc, char **argv, int *i, const char *lname,
                 const char *sname, const char **val)
{
    const char *a = argv[*i];
    size_t ln = strlen(lname);
    if (strncmp(a, lname, ln) == 0 && a[ln] == '=') {
        *val = a + ln + 1;
        return 1;
    }
    if (strcmp(a, lname) == 0 || (sname && strcmp(a, sname) == 0)) {
        if (*i + 1 >= argc)
            return -1;
        *val = argv[++*i];
        return 1;
    }
    /* "-n5" style for the short alias. */
    if (sname && strncmp(a, sname, strlen(sname)) == 0 && a[strlen(sname)]) {
        *val = a + strlen(sname);
        return 1;
    }
    return 0;
}

void cu_opt_err(const char *cmd, const char *lname, const char *sname,
                const char *what, int r, const char *v)
{
    const char *slash = sname ? "/" : "";
    if (!sname)
        sname = "";
    if (r < 0)
        cu_err(cmd, "%s%s%s needs %s", sname, slash, lname, what);
    else
        cu_err(cmd, "%s%s%s needs %s, got '%s'", sname, slash, lname, what, v);
}

int cu_opt_u64(int argc, char **argv, int *i, const char *cmd,
               const char *lname, const char *sname, const char *what,
               uint64_t *out)
{
    const char *v;
    int r = cu_opt_value(argc, argv, i, lname, sname, &v);
    if (r > 0 && cu_parse_u64(v, out) == 0)
        return 1;
    if (r != 0)
        cu_opt_err(cmd, lname, sname, what, r, v);
    return r == 0 ? 0 : -1;
}

int cu_opt_pct(int argc, char **argv, int *i, const char *cmd,
               const char *lname, const char *what, double max, double *out)
{
    const char *v;
    int r = cu_opt_value(argc, argv, i, lname, NULL, &v);
    if (r > 0 && cu_parse_pct(v, out) == 0 && *out <= max)
        return 1;
    if (r != 0)
        cu_opt_err(cmd, lname, NULL, what, r, v);
    return r == 0 ? 0 : -1;
}

int cu_opt_flag(const char *arg, const char *lname, int *flag)
{
    size_t ln = strlen(lname);
    if (strncmp(arg, lname, ln) != 0)
        return 0;
    if (arg[ln] == '\0' || strcmp(arg + ln, "=yes") == 0) {
        *flag = 1;
        return 1;
    }
    if (strcmp(arg + ln, "=no") == 0) {
        *flag = 0;
        return 1;
    }
    return 0;
}
