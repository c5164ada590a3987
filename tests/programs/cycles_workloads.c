/*
 * Whole-program workloads for the timing models' bench (scripts/bench,
 * scripts/lib/bench_cycles.py): six routines of the kinds embedded code
 * spends its time in, each a function of its own (noinline), run
 * ITERATIONS times, so that the plugin's window on each gives its cycles
 * per iteration.  The results are printed so that nothing is optimised
 * away, and checked so that a wrong build shows.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ITERATIONS 20
#define N_SORT 64
#define N_CRC 256
#define N_MAT 8
#define N_NODES 64
#define N_FSM 256

#define WORKLOAD __attribute__((noinline))

static uint32_t seed = 12345;

static uint32_t next_random(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* Insertion sort of 64 words */
WORKLOAD uint32_t work_sort(uint32_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t v = a[i];
        int j = i - 1;

        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
    return a[0] ^ a[n - 1];
}

/* CRC-32 (reflected, 0xEDB88320), bit by bit, over 256 bytes */
WORKLOAD uint32_t work_crc(const uint8_t *p, int n)
{
    uint32_t crc = 0xffffffffu;

    for (int i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
        }
    }
    return ~crc;
}

/* 8x8 integer matrix multiply */
WORKLOAD int32_t work_matrix(int32_t c[N_MAT][N_MAT],
                             const int32_t a[N_MAT][N_MAT],
                             const int32_t b[N_MAT][N_MAT])
{
    for (int i = 0; i < N_MAT; i++) {
        for (int j = 0; j < N_MAT; j++) {
            int32_t s = 0;

            for (int k = 0; k < N_MAT; k++) {
                s += a[i][k] * b[k][j];
            }
            c[i][j] = s;
        }
    }
    return c[N_MAT - 1][N_MAT - 1];
}

/* A state machine scanning text for numbers and words */
enum { IDLE, NUMBER, WORD };

WORKLOAD uint32_t work_fsm(const char *s, int n)
{
    int state = IDLE;
    uint32_t numbers = 0, words = 0, value = 0, sum = 0;

    for (int i = 0; i < n; i++) {
        char ch = s[i];

        switch (state) {
        case IDLE:
            if (ch >= '0' && ch <= '9') {
                state = NUMBER;
                value = ch - '0';
            } else if (ch >= 'a' && ch <= 'z') {
                state = WORD;
            }
            break;
        case NUMBER:
            if (ch >= '0' && ch <= '9') {
                value = value * 10 + ch - '0';
            } else {
                numbers++;
                sum += value;
                state = IDLE;
            }
            break;
        case WORD:
            if (!(ch >= 'a' && ch <= 'z')) {
                words++;
                state = IDLE;
            }
            break;
        }
    }
    return numbers * 1000 + words + sum;
}

/* Linked-list processing: sum and reverse a list of 64 nodes */
struct node {
    struct node *next;
    uint32_t value;
};

WORKLOAD struct node *work_list(struct node *head, uint32_t *sum)
{
    struct node *prev = NULL;

    *sum = 0;
    while (head) {
        struct node *next = head->next;

        *sum += head->value;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

/* FNV-1a and a murmur-style finaliser over 256 bytes */
WORKLOAD uint32_t work_hash(const uint8_t *p, int n)
{
    uint32_t h = 2166136261u;

    for (int i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

static uint32_t sort_data[N_SORT];
static uint8_t bytes[N_CRC];
static int32_t ma[N_MAT][N_MAT], mb[N_MAT][N_MAT], mc[N_MAT][N_MAT];
static struct node nodes[N_NODES];
static char text[N_FSM];

int main(void)
{
    static const char words[] = "state 42 machine 7 parses 1234 text ";
    uint32_t check = 0, sum = 0;
    struct node *head = NULL;

    for (int i = 0; i < N_CRC; i++) {
        bytes[i] = next_random();
    }
    for (int i = 0; i < N_MAT; i++) {
        for (int j = 0; j < N_MAT; j++) {
            ma[i][j] = next_random() % 100;
            mb[i][j] = next_random() % 100;
        }
    }
    for (int i = 0; i < N_NODES; i++) {
        nodes[i].value = i;
        nodes[i].next = head;
        head = &nodes[i];
    }
    for (int i = 0; i < N_FSM; i++) {
        text[i] = words[i % (sizeof(words) - 1)];
    }
    for (int it = 0; it < ITERATIONS; it++) {
        for (int i = 0; i < N_SORT; i++) {
            sort_data[i] = next_random();
        }
        check += work_sort(sort_data, N_SORT);
        check += work_crc(bytes, N_CRC);
        check += work_matrix(mc, ma, mb);
        check += work_fsm(text, N_FSM);
        head = work_list(head, &sum);
        check += sum;
        check += work_hash(bytes, N_CRC);
    }
    printf("workloads iterations=%d check=%08lx\n", ITERATIONS,
           (unsigned long)check);
    return sum == N_NODES * (N_NODES - 1) / 2 ? 0 : 1;
}
