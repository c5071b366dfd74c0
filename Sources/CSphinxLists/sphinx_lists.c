#include "sphinx_lists.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* sphinxbase's prim_type.h and glist.h, as far as this file needs them. */
typedef union {
  void *ptr;
  long i;
  unsigned long ui;
  double fl;
} anytype_t;
typedef struct gnode_s {
  anytype_t data;
  struct gnode_s *next;
} gnode_t;
typedef gnode_t *glist_t;

enum { NODES_PER_BLOCK = 4096 };

/* A block of nodes; the first node's place links the blocks (so they stay reachable). */
typedef struct block_s {
  struct block_s *next;
  gnode_t nodes[NODES_PER_BLOCK];
} block_t;

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static block_t *blocks;
static size_t block_count;
static _Thread_local gnode_t *free_nodes;

static gnode_t *new_node(void) {
  gnode_t *node = free_nodes;
  if (node == NULL) {
    block_t *block = malloc(sizeof *block);
    if (block == NULL) {
      fputs("directme: out of memory (pocketsphinx list nodes)\n", stderr);
      abort();
    }
    for (int i = 0; i < NODES_PER_BLOCK - 1; ++i) block->nodes[i].next = &block->nodes[i + 1];
    block->nodes[NODES_PER_BLOCK - 1].next = NULL;
    pthread_mutex_lock(&blocks_lock);
    block->next = blocks;
    blocks = block;
    ++block_count;
    pthread_mutex_unlock(&blocks_lock);
    node = block->nodes;
  }
  free_nodes = node->next;
  node->next = NULL;
  return node;
}

static void free_node(gnode_t *node) {
  node->next = free_nodes;
  free_nodes = node;
}

size_t directme_sphinx_list_blocks(void) {
  pthread_mutex_lock(&blocks_lock);
  size_t count = block_count;
  pthread_mutex_unlock(&blocks_lock);
  return count;
}

/* glist.c's functions. */

/* A node holding `data`, put before `g`, or after `gn`. */
static glist_t push(glist_t g, anytype_t data) {
  gnode_t *node = new_node();
  node->data = data;
  node->next = g;
  return node;
}

static gnode_t *insert_after(gnode_t *gn, anytype_t data) {
  gnode_t *node = new_node();
  node->data = data;
  node->next = gn->next;
  gn->next = node;
  return node;
}

glist_t glist_add_ptr(glist_t g, void *ptr) { return push(g, (anytype_t){.ptr = ptr}); }
glist_t glist_add_int32(glist_t g, int32_t val) { return push(g, (anytype_t){.i = (long)val}); }
glist_t glist_add_uint32(glist_t g, uint32_t val) { return push(g, (anytype_t){.ui = (unsigned long)val}); }
glist_t glist_add_float32(glist_t g, float val) { return push(g, (anytype_t){.fl = (double)val}); }
glist_t glist_add_float64(glist_t g, double val) { return push(g, (anytype_t){.fl = val}); }

gnode_t *glist_insert_ptr(gnode_t *gn, void *ptr) { return insert_after(gn, (anytype_t){.ptr = ptr}); }
gnode_t *glist_insert_int32(gnode_t *gn, int32_t val) { return insert_after(gn, (anytype_t){.i = (long)val}); }
gnode_t *glist_insert_uint32(gnode_t *gn, uint32_t val) { return insert_after(gn, (anytype_t){.ui = (unsigned long)val}); }
gnode_t *glist_insert_float32(gnode_t *gn, float val) { return insert_after(gn, (anytype_t){.fl = (double)val}); }
gnode_t *glist_insert_float64(gnode_t *gn, double val) { return insert_after(gn, (anytype_t){.fl = val}); }

glist_t glist_reverse(glist_t g) {
  gnode_t *reversed = NULL;
  while (g) {
    gnode_t *next = g->next;
    g->next = reversed;
    reversed = g;
    g = next;
  }
  return reversed;
}

int32_t glist_count(glist_t g) {
  int32_t n = 0;
  for (; g; g = g->next) ++n;
  return n;
}

void glist_free(glist_t g) {
  while (g) {
    gnode_t *next = g->next;
    free_node(g);
    g = next;
  }
}

gnode_t *glist_tail(glist_t g) {
  if (g == NULL) return NULL;
  while (g->next) g = g->next;
  return g;
}

gnode_t *gnode_free(gnode_t *gn, gnode_t *pred) {
  gnode_t *next = gn->next;
  if (pred) pred->next = next;
  free_node(gn);
  return next;
}
