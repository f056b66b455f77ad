/* See profile_kind.h. */
#define _POSIX_C_SOURCE 200809L
#include "read/profile_kind.h"
#include "util/cmdutil.h"
#include "read/stacks_reader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The header keys of callgrind's format (docs/callgrind-format.md), and
 * cachegrind's, whose files the callgrind reader reads too. */
static const char *const header_keys[] = {
    "version", "creator", "pid", "thread", "cmd", "part", "desc",
    "positions", "event", "events", "summary", "totals",
};

/* The first bytes looked at: a callgrind header line is at the start. */
#define SNIFF_BYTES 4096

static int binary_start(const unsigned char *b, size_t n)
{
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return 1;                       /* gzip */
    /* profile.proto starts with a field key and a length: control bytes
     * that no line of a callgrind file holds. */
    for (size_t i = 0; i < n && i < 16; i++)
        if (b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r')
            return 1;
    return 0;
}

static int is_header_line(const char *s, size_t len)
{
    size_t k = 0;
    while (k < len && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
                       (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
        k++;
    if (k == len || s[k] != ':')
        return 0;
    for (size_t i = 0; i < sizeof header_keys / sizeof header_keys[0]; i++)
        if (strlen(header_keys[i]) == k && strncmp(s, header_keys[i], k) == 0)
            return 1;
    return 0;
}

static int blank_or_comment(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == len || s[i] == '#';
}

/* The first line that is not blank or a comment must be a header line. */
static int text_kind(const char *path, const char *b, size_t n, char *err,
                     size_t errlen)
{
    unsigned lineno = 0;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(b + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (b + at)) : n - at;
        lineno++;
        if (!blank_or_comment(b + at, len)) {
            if (is_header_line(b + at, len))
                return PK_CALLGRIND;
            /* Quote at most 40 bytes, printable ASCII only. */
            char snip[41];
            size_t k = 0;
            for (; k < 40 && k < len; k++) {
                char c = b[at + k];
                snip[k] = (c >= 0x20 && c < 0x7f) ? c : '?';
            }
            snip[k] = 0;
            snprintf(err, errlen, "%s:%u: not a callgrind-format file or a "
                     "pprof profile ('%s%s')", path, lineno, snip,
                     len > 40 ? "..." : "");
            return -1;
        }
        if (!nl)
            break;
        at += len + 1;
    }
    /* Only blank and comment lines so far: the reader decides. */
    return PK_CALLGRIND;
}

int pk_kind(const char *path, char *err, size_t errlen)
{
    if (cu_ends_with(path, ".pb.gz") || cu_ends_with(path, ".pb"))
        return PK_PPROF;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cu_fail_named(err, errlen, path, "%s", strerror(errno));
    char b[SNIFF_BYTES];
    size_t n = fread(b, 1, sizeof b, f);
    int e = ferror(f) ? errno : 0;
    fclose(f);
    if (e)
        return cu_fail_named(err, errlen, path, "%s", strerror(e));
    if (binary_start((const unsigned char *)b, n))
        return PK_PPROF;
    /* A stacks dump is read as the pprof profile it converts to
     * (pprof_reader.h). */
    if (sr_is_dump_start(b, n))
        return PK_PPROF;
    return text_kind(path, b, n, err, errlen);
}
