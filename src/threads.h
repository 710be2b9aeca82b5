/* threads.h -- the thread and system calls of the batch layer (src/batch.c), on POSIX threads
 * and on Windows (src/threads.c). */
#ifndef CN_THREADS_H
#define CN_THREADS_H

#ifdef _WIN32
typedef struct cn__thread {
    void *handle;             /* the thread's HANDLE */
    void *(*fn)(void *);      /* what it runs, through a WINAPI trampoline */
    void *arg;
} cn__thread;
#else
#include <pthread.h>
typedef struct cn__thread {
    pthread_t id;
} cn__thread;
#endif

/* Starts fn(arg) on a new thread; 0 on success. *t must stay in place until cn__thread_join. */
int cn__thread_start(cn__thread *t, void *(*fn)(void *), void *arg);
/* Waits for a thread that cn__thread_start started. */
void cn__thread_join(cn__thread *t);
/* The number of processors this process may run on now (at least 1). */
int cn__cpu_count(void);

#endif
