/* threads.c -- see threads.h. */
#include "threads.h"

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

static DWORD WINAPI trampoline(LPVOID p)
{
    cn__thread *t = (cn__thread *)p;
    t->fn(t->arg);
    return 0;
}

int cn__thread_start(cn__thread *t, void *(*fn)(void *), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    t->handle = CreateThread(NULL, 0, trampoline, t, 0, NULL);
    return t->handle ? 0 : -1;
}

void cn__thread_join(cn__thread *t)
{
    WaitForSingleObject((HANDLE)t->handle, INFINITE);
    CloseHandle((HANDLE)t->handle);
}

int cn__cpu_count(void)
{
    /* Processors of the process's affinity mask (what it may run on), else the system's. */
    DWORD_PTR mine, sys;
    int n = 0;
    if (GetProcessAffinityMask(GetCurrentProcess(), &mine, &sys))
        for (; mine; mine &= mine - 1)
            n++;
    if (n < 1) {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        n = (int)si.dwNumberOfProcessors;
    }
    return n < 1 ? 1 : n;
}
#else
#include <unistd.h>

/* A worker runs the batch kernels as the calling thread does, with up to 160 KiB of stack
 * (cnoise.h, tests/test_stack.c). Some systems start threads with less by default (musl: 128
 * KiB; glibc: RLIMIT_STACK, which may be set low), so a worker asks for at least this much. */
#define CN__WORKER_STACK ((size_t)1 << 20)

int cn__thread_start(cn__thread *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return pthread_create(&t->id, NULL, fn, arg) == 0 ? 0 : -1;
    size_t have = 0;
    if (pthread_attr_getstacksize(&attr, &have) != 0 || have < CN__WORKER_STACK)
        (void)pthread_attr_setstacksize(&attr, CN__WORKER_STACK); /* the default stays if refused */
    const int rc = pthread_create(&t->id, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc == 0 ? 0 : -1;
}

void cn__thread_join(cn__thread *t)
{
    pthread_join(t->id, NULL);
}

int cn__cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1 << 20 ? 1 << 20 : (int)n;
}
#endif
