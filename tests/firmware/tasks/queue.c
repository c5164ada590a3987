/*
 * The test scheduler's queues and semaphores (queue.h)
 *
 * SPDX-License-Identifier: MIT
 */
#include "queue.h"

static const char *registry_name;
static QueueHandle_t registered;

QueueHandle_t __attribute__((noinline))
xQueueGenericCreateStatic(uint32_t length, uint32_t item_size,
                          Queue_t *buffer)
{
    buffer->uxMessagesWaiting = 0;
    buffer->uxLength = length < QUEUE_ITEMS ? length : QUEUE_ITEMS;
    buffer->uxItemSize = item_size;
    buffer->head = 0;
    return buffer;
}

void __attribute__((noinline))
vQueueAddToRegistry(QueueHandle_t queue, const char *name)
{
    registered = queue;
    registry_name = name;
}

int32_t __attribute__((noinline))
xQueueGenericSend(QueueHandle_t queue, const uint32_t *item,
                  uint32_t ticks_to_wait, int32_t position)
{
    uint32_t at;

    (void)ticks_to_wait;
    (void)position;
    if (queue->uxMessagesWaiting == queue->uxLength) {
        return 0;
    }
    at = (queue->head + queue->uxMessagesWaiting) % queue->uxLength;
    queue->items[at] = item ? *item : 0;
    queue->uxMessagesWaiting++;
    return 1;
}

int32_t __attribute__((noinline))
xQueueGenericSendFromISR(QueueHandle_t queue, const uint32_t *item,
                         int32_t *woken, int32_t position)
{
    if (woken) {
        *woken = 0;
    }
    return xQueueGenericSend(queue, item, 0, position);
}

int32_t __attribute__((noinline))
xQueueGiveFromISR(QueueHandle_t queue, int32_t *woken)
{
    return xQueueGenericSendFromISR(queue, 0, woken, 0);
}

int32_t __attribute__((noinline))
xQueueReceive(QueueHandle_t queue, uint32_t *item, uint32_t ticks_to_wait)
{
    (void)ticks_to_wait;
    if (!queue->uxMessagesWaiting) {
        return 0;
    }
    if (item) {
        *item = queue->items[queue->head];
    }
    queue->head = (queue->head + 1) % queue->uxLength;
    queue->uxMessagesWaiting--;
    return 1;
}

int32_t __attribute__((noinline))
xQueueSemaphoreTake(QueueHandle_t queue, uint32_t ticks_to_wait)
{
    return xQueueReceive(queue, 0, ticks_to_wait);
}
