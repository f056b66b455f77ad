/* See event_names.h. */
#include "model/event_names.h"

#include <string.h>

static const char *const groups[][4] = {
    {"Ir", "instructions", NULL, NULL},
    {"Zk", "zkvm_cycles", "cycles", NULL},
};

static int group_of(const char *name)
{
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        for (size_t i = 0; groups[g][i]; i++)
            if (strcmp(groups[g][i], name) == 0)
                return (int)g;
    return -1;
}

int ev_alias(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return 1;
    int g = group_of(a);
    return g >= 0 && g == group_of(b);
}

int ev_find(const char *const *names, int n, const char *want)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], want) == 0)
            return i;
    for (int i = 0; i < n; i++)
        if (ev_alias(names[i], want))
            return i;
    return -1;
}
