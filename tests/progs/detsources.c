/* Reads every source of run-to-run difference that --deterministic=yes
 * fixes (times, getrusage and sysinfo included), and does an amount of
 * work that depends on what it read: without the option its instruction
 * count changes from run to run, with it the count repeats.  Prints one
 * hex digest of everything it read, then the processor's own sources it
 * read: rdtsc, rdtscp, rdrand and rdseed on x86, each only when CPUID
 * (as the program sees it: under Valgrind, the guest's CPUID) has it, and
 * cntvct_el0 on arm64.
 *
 * "detsources INSN" reads one processor source three times and prints,
 * per read, a line the test checks against the option's rules:
 *   rdtsc, rdtscp:  CLOCK_MONOTONIC ns before, the count, ns after (and
 *                   rdtscp's processor id)
 *   cntvct:         the same, then the counter's frequency (cntfrq_el0)
 *   rdrand, rdseed: the value and the carry flag (success)
 * It exits 77 with "INSN: not on this CPU (...)" when the CPU lacks it.
 *
 * "--host-lacks=INSN,..." before either form leaves those out too: under
 * Valgrind the guest's CPUID is a fixed model that may claim what the host
 * lacks (Valgrind 3.19's AVX2 model always sets rdtscp's bit, and VEX
 * decodes rdtscp only where the host has it), so the test says what the
 * host's /proc/cpuinfo lists. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

/* A processor source: how to read it into the digest, how to show one
 * read, and the CPUID bit that is clear when the CPU lacks it (NULL: it
 * has it). */
struct insn {
    const char *name;
    void (*take)(void);
    void (*show)(void);
    const char *absent;
};

static struct timespec now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

static unsigned long long ns_of(struct timespec ts)
{
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
/* CPUID bits (<cpuid.h> names rdrand's and rdseed's only). */
#define LEAF1_EDX_TSC (1u << 4)
#define EXT1_EDX_RDTSCP (1u << 27)

static int cpuid_has(unsigned leaf, unsigned sub, int reg, unsigned bit)
{
    unsigned r[4];
    if (!__get_cpuid_count(leaf, sub, &r[0], &r[1], &r[2], &r[3]))
        return 0;
    return (r[reg] & bit) != 0;
}
enum { EAX, EBX, ECX, EDX };

/* rdrand and rdseed by their mnemonics, so that the program builds
 * without -mrdrnd -mrdseed; run only where CPUID has them. */
static int hw_random(int seed, unsigned long long *v)
{
    unsigned char ok;
    if (seed)
        __asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok));
    else
        __asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
    return ok;
}

static void show_rdtsc(void)
{
    unsigned long long before = ns_of(now()), tsc = __rdtsc(), after = ns_of(now());
    printf("%llu %llu %llu\n", before, tsc, after);
}

static void show_rdtscp(void)
{
    unsigned aux;
    unsigned long long before = ns_of(now()), tsc = __rdtscp(&aux), after = ns_of(now());
    printf("%llu %llu %llu %u\n", before, tsc, after, aux);
}

static void show_random(int seed)
{
    unsigned long long v = 0;
    int ok = hw_random(seed, &v);
    printf("%llu %d\n", v, ok);
}
static void show_rdrand(void) { show_random(0); }
static void show_rdseed(void) { show_random(1); }

static void take_rdtsc(void)
{
    uint64_t tsc = __rdtsc();
    take(&tsc, sizeof tsc);
}

static void take_rdtscp(void)
{
    unsigned aux;
    uint64_t tsc = __rdtscp(&aux);
    take(&tsc, sizeof tsc);
    take(&aux, sizeof aux);
}

static void take_random(int seed)
{
    unsigned long long v = 0;
    if (hw_random(seed, &v))
        take(&v, sizeof v);
}
static void take_rdrand(void) { take_random(0); }
static void take_rdseed(void) { take_random(1); }

static const char *need(int has, const char *where)
{
    return has ? NULL : where;
}

static int processor_sources(struct insn *insns)
{
    insns[0] = (struct insn){ "rdtsc", take_rdtsc, show_rdtsc,
        need(cpuid_has(1, 0, EDX, LEAF1_EDX_TSC), "CPUID leaf 1 EDX bit 4 is clear") };
    insns[1] = (struct insn){ "rdtscp", take_rdtscp, show_rdtscp,
        need(cpuid_has(0x80000001, 0, EDX, EXT1_EDX_RDTSCP), "CPUID leaf 0x80000001 EDX bit 27 is clear") };
    insns[2] = (struct insn){ "rdrand", take_rdrand, show_rdrand,
        need(cpuid_has(1, 0, ECX, bit_RDRND), "CPUID leaf 1 ECX bit 30 is clear") };
    insns[3] = (struct insn){ "rdseed", take_rdseed, show_rdseed,
        need(cpuid_has(7, 0, EBX, bit_RDSEED), "CPUID leaf 7 EBX bit 18 is clear") };
    return 4;
}
#elif defined(__aarch64__)
/* The virtual counter, which Linux lets user code read: always there. */
static uint64_t cntvct(void)
{
    uint64_t cnt;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt));
    return cnt;
}

static void take_cntvct(void)
{
    uint64_t cnt = cntvct();
    take(&cnt, sizeof cnt);
}

static void show_cntvct(void)
{
    uint64_t freq;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(freq));
    unsigned long long before = ns_of(now()), cnt = cntvct(), after = ns_of(now());
    printf("%llu %llu %llu %llu\n", before, cnt, after, (unsigned long long)freq);
}

static int processor_sources(struct insn *insns)
{
    insns[0] = (struct insn){ "cntvct", take_cntvct, show_cntvct, NULL };
    return 1;
}
#else
static int processor_sources(struct insn *insns)
{
    (void)insns;
    return 0;
}
#endif

enum { MAX_INSNS = 4 };

static const char *host_lacks = "";   /* ",rdtscp,rdseed," and the like */

/* The sources CPUID has and the host was not said to lack. */
static int usable_sources(struct insn *insns)
{
    int n = processor_sources(insns);
    char key[32];
    for (int i = 0; i < n; i++) {
        snprintf(key, sizeof key, ",%s,", insns[i].name);
        if (!insns[i].absent && strstr(host_lacks, key))
            insns[i].absent = "not in the host's /proc/cpuinfo flags";
    }
    return n;
}

/* Reads every processor source the CPU has; returns their names. */
static void take_processor_sources(char *names, size_t size)
{
    struct insn insns[MAX_INSNS];
    int n = usable_sources(insns);
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (insns[i].absent)
            continue;
        insns[i].take();
        used += (size_t)snprintf(names + used, size - used, " %s", insns[i].name);
        if (used >= size)
            break;
    }
}

/* "detsources INSN": three reads of one processor source. */
static int show_one(const char *name)
{
    struct insn insns[MAX_INSNS];
    int n = usable_sources(insns);
    for (int i = 0; i < n; i++) {
        if (strcmp(insns[i].name, name) != 0)
            continue;
        if (insns[i].absent) {
            printf("%s: not on this CPU (%s)\n", name, insns[i].absent);
            return 77;
        }
        for (int r = 0; r < 3; r++)
            insns[i].show();
        return 0;
    }
    fprintf(stderr, "detsources: no processor source '%s' on this architecture\n", name);
    return 2;
}

__attribute__((noinline)) static uint64_t work(uint64_t rounds)
{
    uint64_t x = rounds;
    for (uint64_t i = 0; i < rounds; i++)
        x = x * 6364136223846793005ull + i;
    return x;
}

int main(int argc, char **argv)
{
    static char lacks[256];
    if (argc >= 2 && strncmp(argv[1], "--host-lacks=", 13) == 0) {
        snprintf(lacks, sizeof lacks, ",%s,", argv[1] + 13);
        host_lacks = lacks;
        argc--, argv++;
    }
    if (argc == 2)
        return show_one(argv[1]);
    char processor[64];
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
    take_processor_sources(processor, sizeof processor);
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
    printf("processor sources read:%s\n", processor);
    return 0;
}
