/* The three sources --deterministic=yes cannot fix, each once: a second
 * thread, an asynchronous signal (SIGALRM from a timer) and a read of a file
 * under /proc other than the process's own maps.  Also a signal it sends
 * itself (raise: delivered in order, not named) and a read of its own maps
 * (not named). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;

static void *worker(void *arg) { return arg; }
static void on_signal(int sig) { if (sig == SIGALRM) alarms++; }

static void read_file(const char *path)
{
    char buf[256];
    FILE *f = fopen(path, "r");
    if (f) {
        while (fgets(buf, sizeof buf, f))
            ;
        fclose(f);
    }
}

int main(void)
{
    pthread_t t;
    signal(SIGUSR1, on_signal);
    signal(SIGALRM, on_signal);
    raise(SIGUSR1);
    read_file("/proc/self/maps");
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    alarm(1);
    while (!alarms)
        pause();
    read_file("/proc/stat");
    puts("done");
    return 0;
}
