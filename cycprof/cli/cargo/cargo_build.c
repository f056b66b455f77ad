/* See cargo_build.h. */
#define _POSIX_C_SOURCE 200809L
#include "cargo/cargo_build.h"
#include "cargo/cargo_proc.h"
#include "util/cmdutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *cargo_find_manifest(void)
{
    char *dir = getcwd(NULL, 0);
    if (!dir)
        return NULL;
    for (;;) {
        size_t n = strlen(dir);
        char *p = cu_malloc(n + sizeof "/Cargo.toml");
        snprintf(p, n + sizeof "/Cargo.toml", "%s/Cargo.toml",
                 strcmp(dir, "/") ? dir : "");
        struct stat sb;
        if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
            free(dir);
            return p;
        }
        free(p);
        char *slash = strrchr(dir, '/');
        if (!slash || strcmp(dir, "/") == 0)
            break;
        slash[slash == dir] = 0; /* "/a" -> "/", "/a/b" -> "/a" */
    }
    free(dir);
    return NULL;
}

/* Skip blanks. */
static const char *blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Enough TOML for one key: `default-run = "name"` (or 'name') in the
 * [package] table. Anything fancier (inline tables, escapes) is not how
 * people write a binary name; cargo itself rejects a wrong one. */
char *cargo_default_run(const char *manifest)
{
    FILE *f = fopen(manifest, "r");
    if (!f)
        return NULL;
    char *line = NULL, *found = NULL;
    size_t cap = 0;
    int in_package = 0;
    while (!found && getline(&line, &cap, f) >= 0) {
        const char *s = blank(line);
        if (*s == '[') {
            s = blank(s + 1);
            in_package = strncmp(s, "package", 7) == 0 &&
                         *blank(s + 7) == ']';
            continue;
        }
        if (!in_package || strncmp(s, "default-run", 11) != 0)
            continue;
        s = blank(s + 11);
        if (*s != '=')
            continue;
        s = blank(s + 1);
        char q = *s;
        const char *end = (q == '"' || q == '\'') ? strchr(s + 1, q) : NULL;
        if (end)
            found = cu_strndup(s + 1, (size_t)(end - s - 1));
    }
    free(line);
    fclose(f);
    return found;
}

/* The JSON string value that starts just after its opening quote, as a
 * fresh string; handles the escapes cargo puts in paths. */
static char *json_string(const char *s)
{
    char *out = cu_malloc(strlen(s) + 1), *o = out;
    for (; *s && *s != '"'; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
    return out;
}

/* The value of "key":"..." after from, or NULL. */
static char *json_field(const char *from, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(from, pat);
    return p ? json_string(p + strlen(pat)) : NULL;
}

/* One line of cargo's JSON output: a bin or example it built? Libraries
 * have "executable":null; build scripts are of kind custom-build. */
static int artifact(const char *line, cargo_exe_t *e)
{
    if (!strstr(line, "\"reason\":\"compiler-artifact\""))
        return 0;
    const char *target = strstr(line, "\"target\":{");
    if (!target || (!strstr(target, "\"kind\":[\"bin\"]") &&
                    !strstr(target, "\"kind\":[\"example\"]")))
        return 0;
    e->path = json_field(line, "executable");
    if (!e->path)
        return 0;
    e->name = json_field(target, "name");
    if (!e->name) {
        const char *slash = strrchr(e->path, '/');
        e->name = cu_strdup(slash ? slash + 1 : e->path);
    }
    return 1;
}

int cargo_build(char **args, cargo_exe_t **exe, int *nexe)
{
    int fd[2];
    if (pipe(fd) < 0)
        cargo_die("pipe: %s", strerror(errno));
    int nargs = 0;
    while (args[nargs])
        nargs++;
    char **argv = cu_calloc((size_t)nargs + 4, sizeof *argv);
    argv[0] = "cargo";
    argv[1] = "build";
    /* JSON on stdout tells us the executables; diagnostics still go to
     * stderr rendered as cargo always shows them. */
    argv[2] = "--message-format=json-render-diagnostics";
    memcpy(argv + 3, args, sizeof *args * (size_t)nargs);
    pid_t pid = cargo_spawn(argv, fd[1], 0);
    close(fd[1]);
    free(argv);

    FILE *f = fdopen(fd[0], "r");
    if (!f)
        cargo_die("fdopen: %s", strerror(errno));
    char *line = NULL;
    size_t cap = 0, ecap = 0;
    *exe = NULL;
    *nexe = 0;
    while (getline(&line, &cap, f) >= 0) {
        cargo_exe_t e;
        if (!artifact(line, &e))
            continue;
        cu_grow(exe, &ecap, (size_t)*nexe + 1, sizeof **exe);
        (*exe)[(*nexe)++] = e;
    }
    free(line);
    fclose(f);
    return cargo_wait(pid);
}
