/* What every Rust program does at start-up: pthread_getattr_np on the main
 * thread, which makes glibc parse /proc/self/maps.  Then prints how many
 * lines that file has, for comparing the tool's with --tool=none's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

int main(void)
{
    pthread_attr_t attr;
    char line[512];
    int lines = 0;
    pthread_getattr_np(pthread_self(), &attr);
    FILE *maps = fopen("/proc/self/maps", "r");
    while (maps && fgets(line, sizeof line, maps))
        lines++;
    printf("%d\n", lines);
    return 0;
}
