/*
 * The test scheduler's queues and semaphores (queue.c), named as
 * FreeRTOS's queue.c names them, for the profiler's kernel objects: a
 * ring of words that never blocks (a full send or an empty receive
 * fails at once).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef QUEUE_H
#define QUEUE_H

#include <stdint.h>
#include "tasks.h"

#define QUEUE_ITEMS 4

typedef struct QueueDefinition {
    uint32_t uxMessagesWaiting;
    uint32_t uxLength;
    uint32_t uxItemSize;        /* bytes: 0 for a semaphore */
    uint32_t head;
    uint32_t items[QUEUE_ITEMS];
    List_t xTasksWaitingToSend;
    List_t xTasksWaitingToReceive;
} Queue_t;

typedef Queue_t *QueueHandle_t;

QueueHandle_t xQueueGenericCreateStatic(uint32_t length, uint32_t item_size,
                                        Queue_t *buffer);
void vQueueAddToRegistry(QueueHandle_t queue, const char *name);
/* 1 when done, 0 when it could not (full or empty) */
int32_t xQueueGenericSend(QueueHandle_t queue, const uint32_t *item,
                          uint32_t ticks_to_wait, int32_t position);
int32_t xQueueGenericSendFromISR(QueueHandle_t queue, const uint32_t *item,
                                 int32_t *woken, int32_t position);
int32_t xQueueGiveFromISR(QueueHandle_t queue, int32_t *woken);
int32_t xQueueReceive(QueueHandle_t queue, uint32_t *item,
                      uint32_t ticks_to_wait);
int32_t xQueueSemaphoreTake(QueueHandle_t queue, uint32_t ticks_to_wait);

#endif
