/* LD_PRELOAD'ed into the python3 workload. glibc's pthread_getattr_np() finds
 * the main thread's stack by scanning /proc/self/maps line by line, and
 * Python 3.14 calls it at startup. Under Valgrind that file also lists the
 * tool's own memory, which differs from tool to tool: the instructions spent
 * scanning it would differ between cycprof and its oracles (lackey,
 * cachegrind) for reasons that have nothing to do with counting. Here the
 * main thread's stack comes from __libc_stack_end and RLIMIT_STACK instead,
 * the same in every run; other threads use glibc's own function. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>

extern void *__libc_stack_end;

int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr)
{
    if (pthread_equal(thread, pthread_self()) && gettid() == getpid()) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t top = ((uintptr_t)__libc_stack_end & -page) + page;
        struct rlimit rl;
        size_t size = 8u << 20;
        if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
            && rl.rlim_cur < top)
            size = rl.rlim_cur & -page;
        int rc = pthread_attr_init(attr);
        return rc ? rc : pthread_attr_setstack(attr, (void *)(top - size), size);
    }
    int (*next)(pthread_t, pthread_attr_t *) =
        (int (*)(pthread_t, pthread_attr_t *))dlsym(RTLD_NEXT, "pthread_getattr_np");
    return next ? next(thread, attr) : ENOSYS;
}
