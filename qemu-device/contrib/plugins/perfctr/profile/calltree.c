/*
 * perfctr plugin: the call tree (see calltree.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>

#include "profile/calltree.h"
#include "profile/node_index.h"

typedef struct NodeInfo {
    uint64_t parent;
    uint64_t call_site;
    /* Its child entered last, and from where (children's cache) */
    uint64_t last_site, last_child;
} NodeInfo;

static NodeIndex *children;     /* (parent node, call site) -> node */
static GArray *nodes;           /* NodeInfo by node; 0 is the root */
static uint64_t depth_lost_total;

void calltree_init(void)
{
    children = node_index_new();
    nodes = g_array_new(false, true, sizeof(NodeInfo));
    g_array_set_size(nodes, 1);
}

uint64_t calltree_child(uint64_t parent, uint64_t call_site)
{
    NodeInfo *info = &g_array_index(nodes, NodeInfo, parent);
    uint64_t *node;

    if (info->last_child && info->last_site == call_site) {
        return info->last_child;
    }
    node = node_index_value(children, parent, call_site);
    if (!*node) {
        NodeInfo child = { parent, call_site };

        g_array_append_val(nodes, child);
        *node = nodes->len - 1;
        info = &g_array_index(nodes, NodeInfo, parent);    /* (moved) */
    }
    info->last_site = call_site;
    info->last_child = *node;
    return *node;
}

void calltree_push(CallStack *c, uint64_t node, uint64_t ret, uint64_t sp)
{
    if (c->depth == MAX_DEPTH) {
        c->depth_lost++;
        depth_lost_total++;
        return;
    }
    c->stack[c->depth++] = (Frame) { ret, c->node, sp };
    c->node = node;
}

void calltree_pop_frame(CallStack *c, unsigned depth)
{
    c->node = c->stack[depth].caller_node;
    c->depth = depth;
}

bool calltree_pop_to(CallStack *c, uint64_t pc)
{
    unsigned i;

    if (c->depth_lost) {
        c->depth_lost--;
        return true;
    }
    for (i = c->depth; i-- > 0;) {
        if (c->stack[i].ret == pc) {
            calltree_pop_frame(c, i);
            return true;
        }
    }
    return false;
}

uint64_t calltree_depth_lost(void)
{
    return depth_lost_total;
}

void calltree_restart(void)
{
    depth_lost_total = 0;
}

void calltree_write(FILE *out)
{
    guint i;

    for (i = 1; i < nodes->len; i++) {
        NodeInfo *node = &g_array_index(nodes, NodeInfo, i);

        fprintf(out, "node %u %" PRIu64 " 0x%" PRIx64 "\n",
                i, node->parent, node->call_site);
    }
}

CallStack *calltree_new_stack(void)
{
    CallStack *c = g_new0(CallStack, 1);
    NodeInfo root = { 0, 0 };

    g_array_append_val(nodes, root);
    c->root = c->node = nodes->len - 1;
    return c;
}

void calltree_stack_clear(CallStack *c)
{
    c->node = c->root;
    c->depth = 0;
    c->depth_lost = 0;
}
