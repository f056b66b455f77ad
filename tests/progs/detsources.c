/* Reads every source of run-to-run difference that --deterministic=yes
 * fixes (times, getrusage and sysinfo included), and does an amount of
 * work that depends on what it read: without the option its instruction
 * count changes from run to run, with it the
 * count repeats.  Prints one hex digest of everything it read.  The
 * processor's own sources: rdtsc, rdtscp, rdrand and rdseed on x86,
 * cntvct_el0 on arm64. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

static uint64_t digest = 1469598103934665603ull;

static void take(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        digest = (digest ^ b[i]) * 1099511628211ull;
}

static void take_clock(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) == 0)
        take(&ts, sizeof ts);
}

static void take_fd(int fd, size_t n)
{
    unsigned char buf[64];
    if (fd >= 0 && read(fd, buf, n) == (ssize_t)n)
        take(buf, n);
}

#if defined(__x86_64__) || defined(__i386__)
/* rdrand and rdseed by their encodings' mnemonics, so that the program
 * builds without -mrdrnd -mrdseed; run only where CPUID has them. */
static int hw_random(int seed, unsigned long long *v)
{
    unsigned char ok;
    if (seed)
        __asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok));
    else
        __asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
    return ok;
}

static void take_processor_sources(void)
{
    unsigned a, b, c, d;
    uint64_t tsc = __rdtsc();
    take(&tsc, sizeof tsc);
    unsigned aux;
    tsc = __rdtscp(&aux);
    take(&tsc, sizeof tsc);
    take(&aux, sizeof aux);
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_RDRND)) {
        unsigned long long v = 0;
        if (hw_random(0, &v))
            take(&v, sizeof v);
    }
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_RDSEED)) {
        unsigned long long v = 0;
        if (hw_random(1, &v))
            take(&v, sizeof v);
    }
}
#elif defined(__aarch64__)
/* The virtual counter, which Linux lets user code read. */
static void take_processor_sources(void)
{
    uint64_t cnt;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt));
    take(&cnt, sizeof cnt);
}
#else
static void take_processor_sources(void) {}
#endif

__attribute__((noinline)) static uint64_t work(uint64_t rounds)
{
    uint64_t x = rounds;
    for (uint64_t i = 0; i < rounds; i++)
        x = x * 6364136223846793005ull + i;
    return x;
}

int main(void)
{
    take_clock(CLOCK_REALTIME);
    take_clock(CLOCK_MONOTONIC);
    take_clock(CLOCK_PROCESS_CPUTIME_ID);
    take_clock(CLOCK_BOOTTIME);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    take(&tv, sizeof tv);
#ifdef SYS_time
    time_t t = (time_t)syscall(SYS_time, NULL);
#else
    time_t t = time(NULL);   /* arm64 has no time system call */
#endif
    take(&t, sizeof t);
    struct tms tm;
    clock_t ticks = times(&tm);
    take(&ticks, sizeof ticks);
    take(&tm, sizeof tm);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    take(&ru.ru_utime, sizeof ru.ru_utime);
    take(&ru.ru_stime, sizeof ru.ru_stime);
    struct sysinfo si;
    sysinfo(&si);
    take(&si.uptime, sizeof si.uptime);
    take(&si.freeram, sizeof si.freeram);
    take(&si.loads, sizeof si.loads);
    take_processor_sources();
    unsigned char r[32];
    if (getrandom(r, sizeof r, 0) == (ssize_t)sizeof r)
        take(r, sizeof r);
    int u = open("/dev/urandom", O_RDONLY);
    take_fd(u, 16);
    int dup_fd = dup(u);              /* a descriptor not opened by name */
    take_fd(dup_fd, 16);
    take_fd(open("/dev/random", O_RDONLY), 8);
    take((const void *)getauxval(AT_RANDOM), 16);
    unsigned cpu = 0, node = 0;
    syscall(SYS_getcpu, &cpu, &node, NULL);
    take(&cpu, sizeof cpu);
    take(&node, sizeof node);
    /* A timeout that runs out moves the virtual clock on by as much. */
    struct timespec before, after;
    clock_gettime(CLOCK_MONOTONIC, &before);
    poll(NULL, 0, 20);
    clock_gettime(CLOCK_MONOTONIC, &after);
    long long waited_ms = (after.tv_sec - before.tv_sec) * 1000 +
                          (after.tv_nsec - before.tv_nsec) / 1000000;
    printf("%016llx %s\n", (unsigned long long)work(digest % 4096 + 1000),
           waited_ms >= 20 ? "waited" : "did-not-wait");
    return 0;
}
