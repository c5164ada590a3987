/*
 * perfctr plugin: the call tree that profile.c follows calls into
 *
 * A node is a path of call sites from the root of an execution
 * context (a task, a handler), made when its call is first seen; each
 * context's call stack holds a frame per call it is in: where the call
 * returns to and the node it was made from.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CALLTREE_H
#define PERFCTR_CALLTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_DEPTH 1024

typedef struct Frame {
    uint64_t ret;           /* where it returns to */
    uint64_t caller_node;
    uint64_t sp;            /* the caller's stack pointer at the call */
} Frame;

/* The call stack of one execution context (contexts.c) */
typedef struct CallStack {
    uint64_t root;          /* its context's node */
    uint64_t node;          /* the current node */
    unsigned depth;
    unsigned depth_lost;    /* calls deeper than MAX_DEPTH */
    Frame stack[MAX_DEPTH];
} CallStack;

void calltree_init(void);
/* A new call stack, rooted at a node of its own */
CallStack *calltree_new_stack(void);
/* Back to its root: no call made */
void calltree_stack_clear(CallStack *c);
/* The node of a call from parent at call_site */
uint64_t calltree_child(uint64_t parent, uint64_t call_site);
/*
 * A call to node that returns to ret, made with the stack pointer at sp
 * (beyond MAX_DEPTH: counted lost)
 */
void calltree_push(CallStack *c, uint64_t node, uint64_t ret, uint64_t sp);
/* Unwind to the frame that returns to pc; false if there is none */
bool calltree_pop_to(CallStack *c, uint64_t pc);
/* Unwind frame depth and those above it, as if it had returned */
void calltree_pop_frame(CallStack *c, unsigned depth);
/* Calls lost beyond MAX_DEPTH since the profile started */
uint64_t calltree_depth_lost(void);
/* The profile starts again: the nodes stay, the calls lost go */
void calltree_restart(void);
/* Write "node N parent call-site" for every node */
void calltree_write(FILE *out);

#endif
