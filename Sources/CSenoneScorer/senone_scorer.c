#include "senone_scorer.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* pocketsphinx 5prealpha's structures, as far as this code reads them (its acmod.h,
 * ptm_mgau.h, ms_gauden.h; sphinxbase's logmath.h). Checked in `directme_senone_scorer_create`
 * against what they must hold before any number is read. */
typedef float mfcc_t; /* sphinxbase built without FIXED_POINT (Debian) */

typedef struct {
  void *table;
  uint32_t table_size;
  uint8_t width;
  int8_t shift;
} logadd_mirror; /* the start of a logmath_t */

typedef int32_t (*frame_eval_f)(void *mgau, int16_t *senone_scores, uint8_t *senone_active, int32_t n_senone_active,
                                mfcc_t **feat, int32_t frame, int32_t compallsen);
typedef struct {
  char const *name;
  frame_eval_f frame_eval;
  int (*transform)(void *mgau, void *mllr);
  void (*free)(void *mgau);
} mgaufuncs_mirror;

typedef struct {
  mfcc_t ****mean; /* mean[codebook][stream][codeword]: featlen floats */
  mfcc_t ****var;  /* 1 / (2 var), in the model's log units, the same layout */
  mfcc_t ***det;   /* det[codebook][stream][codeword] */
  void *lmath;
  int32_t n_mgau;
  int32_t n_feat;
  int32_t n_density;
  int32_t *featlen;
} gauden_mirror;

typedef struct {
  mgaufuncs_mirror *vt;
  int frame_idx;
  void *config;
  gauden_mirror *g;
  int32_t n_sen;
  uint8_t *sen2cb;
  uint8_t ***mixw; /* mixw[stream][codeword][senone] */
  void *sendump_mmap;
  uint8_t *mixw_cb;
  int16_t max_topn;
  int16_t ds_ratio;
  void *hist;
  void *f;
  int n_fast_hist;
  void *lmath_8b;
  void *lmath;
} ptm_mirror;

/* ptm_mgau.h's ptm_topn_t. */
typedef struct {
  int32_t cw;
  int32_t score;
} topn_t;

/* ptm_mgau.h's ptm_fast_eval_t: one frame of the fast-match history. */
typedef struct {
  topn_t ***topn; /* [codebook][stream][place], one contiguous block from topn[0][0] */
  void *mgau_active;
} fast_eval_mirror;

typedef struct {
  void *config;
  void *lmath;
  void *strings;
  void *fe;
  void *fcb;
  void *mdef;
  void *tmat;
  void *mgau;
} acmod_head;

/* The rest of 5prealpha's acmod_t, as far as the feature buffer: in a whole utterance
 * (`ps_process_raw` with `full_utt`) every frame's features are there before the first is
 * scored, so the scorer can read the frames after the one it is asked for. Trusted only
 * while what it says agrees with what frame_eval is given (`frames_ahead`). */
typedef struct {
  acmod_head head;
  void *mllr;
  int16_t *senone_scores;
  void *senone_active_vec;
  uint8_t *senone_active;
  int senscr_frame;
  int n_senone_active;
  int log_zero;
  mfcc_t **mfc_buf;
  mfcc_t ***feat_buf;
  FILE *rawfh;
  FILE *mfcfh;
  FILE *senfh;
  FILE *insenfh;
  long *framepos;
  int16_t *rawdata;
  int32_t rawdata_size;
  int32_t rawdata_pos;
  uint8_t state;
  uint8_t compallsen;
  uint8_t grow_feat;
  uint8_t insen_swap;
  int32_t utt_start_frame;
  int32_t output_frame;
  int32_t n_mfc_alloc;
  int32_t n_mfc_frame;
  int32_t mfc_outidx;
  int32_t n_feat_alloc;
  int32_t n_feat_frame;
  int32_t feat_outidx;
} acmod_mirror;


enum {
  MAX_STREAMS = 4,
  MAX_FEATLEN = 64,
  MAX_TOPN = 16,
  SENSCR_SHIFT = 10,
  MAX_NEG_ASCR = 96,
  /* Frames whose codeword scores are computed together when every senone is scored: each
   * codebook's means and precisions are read once for all of them (read once a frame, the
   * model's 2 MB did not stay in the cache between frames). */
  BATCH = 8,
  /* Frames scored ahead together when every senone is scored in a whole utterance (see
   * `score_ahead`), their codeword scores BATCH at a time: each batch of them wakes the
   * helper thread twice, and a wake-up cost more than a batch of 8 frames' half (the
   * kernel's scheduler was 7.7% of a replay's samples with AHEAD 8). */
  AHEAD = 32,
  /* fast_logmath_add's table, padded: a difference past the table adds nothing. */
  ADD_TABLE_SIZE = 4096,
  /* The entries a table of 8-bit log-additions holds before they round to 0: 29 for the
   * models' base (1.0001) at SENSCR_SHIFT; read with byte shuffles when the rest are 0. */
  SHORT_TABLE = 32,
};
#define WORST_DIST ((int32_t)0x80000000)
#define WORST_SCORE ((int32_t)0xE0000000)

/* The vtable the model gets while the scorer is attached: pocketsphinx's own, but for
 * `frame_eval` (and `transform`, which also refreshes the scorer's copy of the means). */
typedef struct {
  mgaufuncs_mirror funcs;
  directme_senone_scorer *scorer;
} hook_t;

#define MAX_GAUSS_SHARERS 8

struct directme_senone_scorer {
  ptm_mirror *ptm;
  /* The mixture weights read: the model's own (`ptm->mixw`, `ptm->mixw_cb`), or another
   * decoder's of the same file (`directme_senone_scorer_share_weights`). */
  uint8_t ***mixw;
  uint8_t *mixw_cb;
  mgaufuncs_mirror *original;
  hook_t hook;
  uint8_t *cb_active; /* the frame's slot of cb_active_ring: its codebooks evaluated */
  uint8_t *cb_active_ring;
  /* This frame's mixture-weight row and codeword score of each codebook, stream and top-N
   * place ([codebook][stream][place]), for scoring a list of active senones. */
  uint8_t const **rows;
  int *row_scores;
  int n_mgau, n_feat, n_density, n_sen, max_topn, ds_ratio;
  int featlen[MAX_STREAMS];
  /* Means and precisions transposed, [codebook][stream][dimension][codeword], so that
   * one dimension of every codeword of a codebook is one contiguous run. `in_place`: in the
   * model's own arrays (one run each, as pocketsphinx allocates them), transposed while the
   * scorer is attached and given back in the model's layout when it leaves; otherwise copies. */
  mfcc_t *mean_t;
  mfcc_t *var_t;
  int in_place;
  size_t gauss_total; /* mfcc_t in mean_t, and in var_t */
  /* Read from another scorer's, of the same model (`directme_senone_scorer_share_gaussians`):
   * `gauss_from`; the model's own arrays, `own_mean_t` and `own_var_t`, are then left unread,
   * their pages given back, until they are needed again (`unshare_gaussians`). A scorer others
   * read from keeps them in `gauss_sharers`. */
  directme_senone_scorer *gauss_from;
  mfcc_t *own_mean_t;
  mfcc_t *own_var_t;
  directme_senone_scorer *gauss_sharers[MAX_GAUSS_SHARERS];
  int n_gauss_sharers;
  mfcc_t *scratch; /* one [codebook][stream] block */
  size_t *block; /* start of [codebook][stream] in mean_t / var_t */
  /* Top-N codewords of every codebook and stream, carried from frame to frame: the frame's
   * slot of `ring`, which holds the last `n_hist` frames' as pocketsphinx's fast-match history
   * does (frame f in slot f % n_hist, starting from slot (f - 1) % n_hist: so the first frame of
   * an utterance starts from the list that slot kept, not from the last frame's). Which list a
   * frame starts from decides between codewords that score alike. */
  topn_t *topn;
  topn_t *ring;
  int n_hist;
  size_t slot_size; /* topn_t per slot */
  mfcc_t *dist;
  uint8_t add_table[ADD_TABLE_SIZE + 4]; /* + 4: a 32-bit read at any index stays inside */
  int avx2;                              /* the processor has AVX2: eight senones at a time */
  int short_table;                       /* every entry of add_table from SHORT_TABLE - 1 on is 0 */
  /* Senones by codebook: cb_senones[cb_start[cb] ..< cb_start[cb + 1]]. */
  int *cb_start;
  int *cb_senones;
  int32_t *ascores;
  acmod_mirror const *acmod;
  /* Codeword scores of the BATCH frames `batched_distances` scored together,
   * [frame][codebook][stream][codeword], and each frame's features (every stream's, one after
   * another) and index: a frame is read from here when its features are the same. (The frames
   * `score_ahead` scores keep theirs in `part_dist`, a codebook at a time.) */
  mfcc_t *batch_dist;
  mfcc_t *batch_feat;
  int batch_frame[BATCH];
  int batch_count;
  int total_featlen;
  long frames_from_batches; /* frames whose codeword scores a batch gave */
  /* The best senone's log-likelihood (before pocketsphinx's normalizations, in its scaled
   * log units >> SENSCR_SHIFT) of each new frame scored with every senone, in order: how well
   * the model fits the audio, whatever the grammar. */
  float *fits;
  long fit_count, fit_capacity;
  int32_t frame_norm; /* this frame's codeword normalization, summed over the streams */
  /* Frames scored ahead, every senone (see `score_ahead`): from `ahead_first`, `ahead_count`
   * of them, each frame's top-N codewords as its slot of the ring is to hold them
   * ([frame][slot]), codeword normalization (`ahead_norm`, by stream in `ahead_stream_norm`),
   * senone scores before the best is taken off ([frame][senone]) and best; `ahead_next`: the
   * frame they serve next (-1: none). */
  topn_t *ahead_topn;
  /* Each frame's senone scores as pocketsphinx keeps them before the best is taken off: the
   * low 16 bits of the sum (`serve_ahead` takes the best off those, as `score_senones`
   * does), [frame][senone]; the sums themselves in `part_ascores`, a frame at a time. */
  int16_t *ahead_ascores;
  int32_t *part_ascores; /* [part][senone] */
  mfcc_t *part_dist;     /* [part][frame][codeword]: a codebook's codeword scores, AHEAD frames */
  mfcc_t *ahead_feat;
  mfcc_t *ahead_scratch; /* [part][codeword]: distances of frames past the last at hand */
  int32_t ahead_norm[AHEAD];
  int32_t ahead_stream_norm[AHEAD][MAX_STREAMS];
  int32_t ahead_best[AHEAD];
  int32_t part_top[2][AHEAD][MAX_STREAMS]; /* each part's best codeword score, >> SENSCR_SHIFT */
  int32_t part_best[2][AHEAD];
  mfcc_t **ahead_frames[AHEAD];
  int ahead_first, ahead_count, ahead_next;
  /* The codebooks [0, split) are the first part's, the rest the second's: about half the
   * work each (a codebook's Gaussians, then its senones). */
  int split;
  /* A helper thread scoring the second part while this one scores the first. */
  pthread_t helper;
  int helper_running;
  int phase;
  _Atomic uint32_t go;   /* bumped to start a phase */
  _Atomic uint32_t done; /* the helper's answer: the `go` it finished */
  /* Whether the helper may be asleep on `go`, and this thread on `done`: a wake-up is a
   * system call, made only then. */
  _Atomic int helper_sleeps, main_sleeps;
  _Atomic int quit;
};

/* The codeword scores of one frame: every codebook, stream and codeword. */
static size_t batch_frame_size(directme_senone_scorer const *s) { return (size_t)s->n_mgau * s->n_feat * s->n_density; }

static int plausible(ptm_mirror const *ptm, acmod_head const *head) {
  if (ptm->vt == NULL || ptm->vt->name == NULL || strcmp(ptm->vt->name, "ptm") != 0) return 0;
  if (ptm->config != head->config || ptm->lmath != head->lmath || ptm->g == NULL || ptm->g->lmath != head->lmath)
    return 0;
  gauden_mirror const *g = ptm->g;
  if (g->n_mgau < 1 || g->n_mgau > 256 || g->n_feat < 1 || g->n_feat > MAX_STREAMS || g->n_density < 1
      || g->n_density > 65536 || g->featlen == NULL || g->mean == NULL || g->var == NULL || g->det == NULL)
    return 0;
  for (int f = 0; f < g->n_feat; ++f)
    if (g->featlen[f] < 1 || g->featlen[f] > MAX_FEATLEN) return 0;
  if (ptm->n_sen < 1 || ptm->n_sen > 32767 || ptm->sen2cb == NULL || ptm->mixw == NULL) return 0;
  if (ptm->max_topn < 1 || ptm->max_topn > MAX_TOPN || ptm->max_topn > g->n_density || ptm->ds_ratio < 1) return 0;
  if (ptm->n_fast_hist < 1 || ptm->n_fast_hist > 1024) return 0;
  if (ptm->lmath_8b == NULL) return 0;
  logadd_mirror const *t = (logadd_mirror const *)ptm->lmath_8b;
  if (t->table == NULL || t->width != 1 || t->table_size < 1) return 0;
  for (int s = 0; s < ptm->n_sen; ++s)
    if (ptm->sen2cb[s] >= g->n_mgau) return 0;
  return 1;
}

/* Whether `arrays` (the model's means or precisions) is one run of floats in
 * [codebook][stream][codeword][dimension] order, each [codebook][stream] block where
 * `block` places it. */
static int contiguous(directme_senone_scorer const *s, mfcc_t ****arrays) {
  mfcc_t const *base = arrays[0][0][0];
  for (int cb = 0; cb < s->n_mgau; ++cb)
    for (int f = 0; f < s->n_feat; ++f)
      for (int cw = 0; cw < s->n_density; ++cw)
        if (arrays[cb][f][cw] != base + s->block[cb * s->n_feat + f] + (size_t)cw * s->featlen[f]) return 0;
  return 1;
}

/* Each [codebook][stream] block of `data` from [codeword][dimension] to [dimension][codeword]
 * (`forward`), or back. */
static void transpose(directme_senone_scorer *s, mfcc_t *data, int forward) {
  size_t n = (size_t)s->n_density;
  for (int cb = 0; cb < s->n_mgau; ++cb)
    for (int f = 0; f < s->n_feat; ++f) {
      size_t len = (size_t)s->featlen[f];
      mfcc_t *block = data + s->block[cb * s->n_feat + f];
      memcpy(s->scratch, block, len * n * sizeof(mfcc_t));
      for (size_t cw = 0; cw < n; ++cw)
        for (size_t j = 0; j < len; ++j) {
          if (forward)
            block[j * n + cw] = s->scratch[cw * len + j];
          else
            block[cw * len + j] = s->scratch[j * n + cw];
        }
    }
}

/* The model's own means and precisions (the scorer reads them in place) to the transposed
 * layout (`forward`) or back to the model's. */
static void transpose_gaussians(directme_senone_scorer *s, int forward) {
  transpose(s, s->mean_t, forward);
  transpose(s, s->var_t, forward);
}

/* The model's means and precisions, transposed (after an MLLR transform too). */
static void copy_gaussians(directme_senone_scorer *s) {
  if (s->in_place) {
    transpose_gaussians(s, 1);
    return;
  }
  gauden_mirror const *g = s->ptm->g;
  for (int cb = 0; cb < s->n_mgau; ++cb)
    for (int f = 0; f < s->n_feat; ++f) {
      int len = s->featlen[f];
      mfcc_t *mean = s->mean_t + s->block[cb * s->n_feat + f];
      mfcc_t *var = s->var_t + s->block[cb * s->n_feat + f];
      mfcc_t const *mean0 = g->mean[cb][f][0];
      mfcc_t const *var0 = g->var[cb][f][0];
      for (int cw = 0; cw < s->n_density; ++cw)
        for (int j = 0; j < len; ++j) {
          mean[(size_t)j * s->n_density + cw] = mean0[(size_t)cw * len + j];
          var[(size_t)j * s->n_density + cw] = var0[(size_t)cw * len + j];
        }
    }
}

/* Slot `i` of the history from pocketsphinx's (`in`) or back to it. */
static void history_copy(directme_senone_scorer *s, int i, int in) {
  fast_eval_mirror const *hist = (fast_eval_mirror const *)s->ptm->hist;
  topn_t *ours = s->ring + (size_t)i * s->slot_size;
  if (hist == NULL || hist[i].topn == NULL || hist[i].topn[0] == NULL || hist[i].topn[0][0] == NULL) {
    if (in)
      for (size_t k = 0; k < s->slot_size; ++k) ours[k] = (topn_t){(int32_t)(k % s->max_topn), WORST_DIST};
    return;
  }
  if (in)
    memcpy(ours, hist[i].topn[0][0], s->slot_size * sizeof(topn_t));
  else
    memcpy(hist[i].topn[0][0], ours, s->slot_size * sizeof(topn_t));
}

static void release(directme_senone_scorer *s) {
  free(s->block);
  free(s->batch_dist);
  free(s->batch_feat);
  if (!s->in_place) {
    free(s->mean_t);
    free(s->var_t);
  }
  free(s->scratch);
  free(s->ring);
  free(s->dist);
  free(s->cb_start);
  free(s->cb_senones);
  free(s->cb_active_ring);
  free(s->rows);
  free(s->row_scores);
  free(s->ascores);
  free(s->fits);
  free(s->ahead_topn);
  free(s->ahead_ascores);
  free(s->part_ascores);
  free(s->part_dist);
  free(s->ahead_feat);
  free(s->ahead_scratch);
  free(s);
}

static int32_t hooked_frame_eval(void *mgau, int16_t *senone_scores, uint8_t *senone_active, int32_t n_senone_active,
                                 mfcc_t **feat, int32_t frame, int32_t compallsen);

/* `s` reads its model's own means and precisions again: they are filled back from the ones it
 * read (the same, transposed alike) and it leaves its source's list. */
static void unshare_gaussians(directme_senone_scorer *s) {
  directme_senone_scorer *from = s->gauss_from;
  if (from == NULL) return;
  memcpy(s->own_mean_t, s->mean_t, s->gauss_total * sizeof(mfcc_t));
  memcpy(s->own_var_t, s->var_t, s->gauss_total * sizeof(mfcc_t));
  s->mean_t = s->own_mean_t;
  s->var_t = s->own_var_t;
  s->own_mean_t = s->own_var_t = NULL;
  s->gauss_from = NULL;
  for (int i = 0; i < from->n_gauss_sharers; ++i)
    if (from->gauss_sharers[i] == s) {
      from->gauss_sharers[i] = from->gauss_sharers[--from->n_gauss_sharers];
      break;
    }
}

/* Every scorer reading `s`'s means and precisions reads its own again (before they change
 * or go). */
static void unshare_sharers(directme_senone_scorer *s) {
  while (s->n_gauss_sharers > 0) unshare_gaussians(s->gauss_sharers[s->n_gauss_sharers - 1]);
}

/* Gives back the whole pages inside `bytes` bytes from `start` (they read as zeros after). */
static void drop_pages(void *start, size_t bytes) {
#if defined(__linux__)
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return;
  uintptr_t first = ((uintptr_t)start + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
  uintptr_t end = ((uintptr_t)start + bytes) & ~((uintptr_t)page - 1);
  if (end > first) madvise((void *)first, end - first, MADV_DONTNEED);
#else
  (void)start;
  (void)bytes;
#endif
}

static int hooked_transform(void *mgau, void *mllr) {
  directme_senone_scorer *s = ((hook_t *)((ptm_mirror *)mgau)->vt)->scorer;
  unshare_gaussians(s);
  unshare_sharers(s);
  if (s->in_place) transpose_gaussians(s, 0);
  int status = s->original->transform(mgau, mllr);
  copy_gaussians(s);
  s->batch_count = 0;
  s->ahead_next = -1;
  return status;
}

directme_senone_scorer *directme_senone_scorer_attach(void *acmod) {
  if (acmod == NULL) return NULL;
  acmod_head const *head = (acmod_head const *)acmod;
  ptm_mirror *ptm = (ptm_mirror *)head->mgau;
  if (ptm == NULL || !plausible(ptm, head) || ptm->vt->frame_eval == NULL || ptm->vt->free == NULL) return NULL;
  gauden_mirror const *g = ptm->g;

  directme_senone_scorer *s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->ptm = ptm;
  s->mixw = ptm->mixw;
  s->mixw_cb = ptm->mixw_cb;
  s->n_mgau = g->n_mgau;
  s->n_feat = g->n_feat;
  s->n_density = g->n_density;
  s->n_sen = ptm->n_sen;
  s->max_topn = ptm->max_topn;
  s->ds_ratio = ptm->ds_ratio;
  size_t total = 0;
  s->block = calloc((size_t)s->n_mgau * s->n_feat, sizeof *s->block);
  for (int f = 0; f < s->n_feat; ++f) s->featlen[f] = g->featlen[f];
  for (int cb = 0; cb < s->n_mgau && s->block; ++cb)
    for (int f = 0; f < s->n_feat; ++f) {
      s->block[cb * s->n_feat + f] = total;
      total += (size_t)s->featlen[f] * s->n_density;
    }
  int widest = 0;
  for (int f = 0; f < s->n_feat; ++f) widest = s->featlen[f] > widest ? s->featlen[f] : widest;
  s->scratch = malloc((size_t)widest * s->n_density * sizeof(mfcc_t));
  s->in_place = s->block && contiguous(s, g->mean) && contiguous(s, g->var);
  s->gauss_total = total;
  s->mean_t = s->in_place ? g->mean[0][0][0] : malloc(total * sizeof(mfcc_t));
  s->var_t = s->in_place ? g->var[0][0][0] : malloc(total * sizeof(mfcc_t));
  s->n_hist = ptm->n_fast_hist;
  s->slot_size = (size_t)s->n_mgau * s->n_feat * s->max_topn;
  s->ring = malloc((size_t)s->n_hist * s->slot_size * sizeof(topn_t));
  s->topn = s->ring;
  s->dist = malloc((size_t)s->n_density * sizeof(mfcc_t));
  s->cb_start = calloc((size_t)s->n_mgau + 1, sizeof(int));
  s->cb_senones = malloc((size_t)s->n_sen * sizeof(int));
  s->cb_active_ring = malloc((size_t)s->n_hist * s->n_mgau);
  s->cb_active = s->cb_active_ring;
  s->rows = malloc((size_t)s->n_mgau * s->n_feat * s->max_topn * sizeof *s->rows);
  s->row_scores = malloc((size_t)s->n_mgau * s->n_feat * s->max_topn * sizeof *s->row_scores);
  s->ascores = malloc((size_t)s->n_sen * sizeof(int32_t));
  s->acmod = (acmod_mirror const *)acmod;
  for (int f = 0; f < s->n_feat; ++f) s->total_featlen += s->featlen[f];
  /* BATCH frames, and one more block for frames scored past the last at hand. */
  s->batch_dist = malloc(((size_t)BATCH * batch_frame_size(s) + (size_t)s->n_density) * sizeof(mfcc_t));
  s->batch_feat = malloc((size_t)BATCH * s->total_featlen * sizeof(mfcc_t));
  int *next = malloc((size_t)s->n_mgau * sizeof(int));
  if (!s->block || !s->scratch || !s->mean_t || !s->var_t || !s->ring || !s->dist || !s->cb_start || !s->cb_senones || !s->cb_active_ring
      || !s->rows || !s->row_scores || !s->ascores || !s->batch_dist || !s->batch_feat || !next) {
    free(next);
    release(s);
    return NULL;
  }
  copy_gaussians(s);
  /* The history goes on from pocketsphinx's own: attached (or detached) between two
   * utterances, the next one's first frame starts from the list it would have. */
  for (int i = 0; i < s->n_hist; ++i) history_copy(s, i, 1);
  memset(s->cb_active_ring, 1, (size_t)s->n_hist * s->n_mgau);
  logadd_mirror const *t = (logadd_mirror const *)ptm->lmath_8b;
  size_t known = t->table_size < ADD_TABLE_SIZE ? t->table_size : ADD_TABLE_SIZE;
  memcpy(s->add_table, t->table, known);
  s->short_table = 1;
  for (size_t k = SHORT_TABLE - 1; k < ADD_TABLE_SIZE; ++k)
    if (s->add_table[k] != 0) s->short_table = 0;
#if defined(__x86_64__)
  __builtin_cpu_init();
  s->avx2 = __builtin_cpu_supports("avx2");
#endif
  for (int sen = 0; sen < s->n_sen; ++sen) s->cb_start[ptm->sen2cb[sen] + 1]++;
  for (int cb = 0; cb < s->n_mgau; ++cb) s->cb_start[cb + 1] += s->cb_start[cb];
  memcpy(next, s->cb_start, (size_t)s->n_mgau * sizeof(int));
  for (int sen = 0; sen < s->n_sen; ++sen) s->cb_senones[next[ptm->sen2cb[sen]]++] = sen;
  free(next);
  /* Frames scored ahead; the parts: a codebook's Gaussians weigh about as much as the
   * average codebook's senones. */
  s->ahead_topn = malloc((size_t)AHEAD * s->slot_size * sizeof(topn_t));
  s->ahead_ascores = malloc((size_t)AHEAD * s->n_sen * sizeof(int16_t));
  s->part_ascores = malloc((size_t)2 * s->n_sen * sizeof(int32_t));
  s->part_dist = malloc((size_t)2 * AHEAD * s->n_density * sizeof(mfcc_t));
  s->ahead_feat = malloc((size_t)AHEAD * s->total_featlen * sizeof(mfcc_t));
  s->ahead_scratch = malloc((size_t)2 * s->n_density * sizeof(mfcc_t));
  if (!s->ahead_topn || !s->ahead_ascores || !s->part_ascores || !s->part_dist || !s->ahead_feat || !s->ahead_scratch) {
    free(s->ahead_topn);
    s->ahead_topn = NULL; /* the frames are scored one by one */
  }
  s->ahead_next = -1;
  double whole = 0, average = (double)s->n_sen / s->n_mgau;
  for (int cb = 0; cb < s->n_mgau; ++cb) whole += 1 + (s->cb_start[cb + 1] - s->cb_start[cb]) / average;
  double so_far = 0;
  for (s->split = 0; s->split < s->n_mgau && so_far < whole / 2; ++s->split)
    so_far += 1 + (s->cb_start[s->split + 1] - s->cb_start[s->split]) / average;

  s->original = ptm->vt;
  s->hook.funcs = *ptm->vt;
  s->hook.funcs.frame_eval = hooked_frame_eval;
  if (s->hook.funcs.transform) s->hook.funcs.transform = hooked_transform;
  s->hook.scorer = s;
  ptm->vt = &s->hook.funcs;
  return s;
}

void directme_senone_scorer_detach(directme_senone_scorer *s) {
  if (s == NULL) return;
  directme_senone_scorer_set_threads(s, 1);
  unshare_gaussians(s);
  unshare_sharers(s);
  for (int i = 0; i < s->n_hist; ++i) history_copy(s, i, 0);
  if (s->ptm->vt == &s->hook.funcs) s->ptm->vt = s->original;
  if (s->in_place) transpose_gaussians(s, 0);
  release(s);
}

int directme_senone_scorer_in_place(directme_senone_scorer const *s) { return s != NULL && s->in_place; }

long directme_senone_scorer_frames_from_batches(directme_senone_scorer const *s) { return s ? s->frames_from_batches : 0; }

int directme_senone_scorer_short_table(directme_senone_scorer const *s) { return s != NULL && s->avx2 && s->short_table; }

float const *directme_senone_scorer_fits(directme_senone_scorer const *s, long *count) {
  *count = s ? s->fit_count : 0;
  return s ? s->fits : NULL;
}

void directme_senone_scorer_forget_fits(directme_senone_scorer *s) {
  if (s) s->fit_count = 0;
}

/* pocketsphinx's insertion_sort_topn: topn[i] takes score d and moves up past worse ones. */
static void insertion_sort_topn(topn_t *topn, int i, int32_t d) {
  topn[i].score = d;
  if (i == 0) return;
  topn_t moving = topn[i];
  int j;
  for (j = i - 1; j >= 0 && d > topn[j].score; j--) topn[j + 1] = topn[j];
  topn[j + 1] = moving;
}

/* One codeword's log-likelihood, dimension after dimension in pocketsphinx's order (det
 * minus each dimension's weighted squared distance, in float); its dimensions `stride` apart
 * (1 in the model's layout, the codebook's size in the transposed one). */
static inline mfcc_t codeword_score(mfcc_t const *mean, mfcc_t const *var, size_t stride, mfcc_t det, int len,
                                    mfcc_t const *z) {
  mfcc_t d = det;
  for (int j = 0; j < len; ++j) {
    mfcc_t diff = z[j] - mean[(size_t)j * stride];
    mfcc_t sqdiff = diff * diff;
    mfcc_t compl = sqdiff * var[(size_t)j * stride];
    d = d - compl;
  }
  return d;
}

/* pocketsphinx's eval_cb for one codeword of score `d`: kept when at least the worst kept
 * (as a float), not kept already, and put in its place. */
static inline void consider(topn_t *topn, int max_topn, int cw, mfcc_t d) {
  topn_t *best = topn, *worst = topn + (max_topn - 1);
  if (d < (mfcc_t)worst->score) return;
  for (int i = 0; i < max_topn; ++i)
    if (topn[i].cw == cw) return;
  int32_t intd = (int32_t)d;
  topn_t *cur;
  for (cur = worst - 1; cur >= best && intd >= cur->score; --cur) cur[1] = cur[0];
  ++cur;
  cur->cw = cw;
  cur->score = intd;
}

/* Every codeword's log-likelihood, dimension after dimension in pocketsphinx's order (det
 * minus each dimension's weighted squared distance, in float, never fused): the codewords
 * side by side in vector lanes. */
#define DISTANCES_BODY                                \
  for (int cw = 0; cw < n; ++cw) dist[cw] = det[cw];  \
  for (int j = 0; j < len; ++j) {                     \
    mfcc_t const *m = mean + (size_t)j * n;           \
    mfcc_t const *v = var + (size_t)j * n;            \
    mfcc_t x = z[j];                                  \
    for (int cw = 0; cw < n; ++cw) {                  \
      mfcc_t diff = x - m[cw];                        \
      mfcc_t sqdiff = diff * diff;                    \
      mfcc_t compl = sqdiff * v[cw];                  \
      dist[cw] = dist[cw] - compl;                    \
    }                                                 \
  }

static void distances(int n, int len, mfcc_t const *z, mfcc_t const *mean, mfcc_t const *var, mfcc_t const *det,
                      mfcc_t *dist) {
  DISTANCES_BODY
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void distances_avx2(int n, int len, mfcc_t const *z, mfcc_t const *mean,
                                                             mfcc_t const *var, mfcc_t const *det, mfcc_t *dist) {
  DISTANCES_BODY
}
#endif

#if defined(__x86_64__)
/* eval_cb's pass over the codewords, eight at a time (see `eval_codebook`); returns how
 * many it went through. */
__attribute__((target("avx2"))) static int select_topn_avx2(topn_t *topn, int max_topn, int n, mfcc_t const *dist,
                                                               int bounded) {
  topn_t const *worst = topn + (max_topn - 1);
  int whole = n - n % 8;
  /* A floor under the codewords that can end among the top: the lanes hold codewords of
   * their own, so the best of lanes k and k + 4 are four different codewords for k = 0..3,
   * and the least of those four, `low`, is at most the fourth best score (max_topn 4 or
   * less). A codeword under low - 2 truncates to a score under that of each of four
   * codewords, which eval_cb takes (each at least the worst kept when it comes) and never
   * lets go for it: it is never among the top when the pass ends, and while it is kept it
   * only sits under them, so passing it over changes neither which codewords end on top
   * nor their order (`directme_senone_scorer_check_selection` checks this against the
   * whole pass). */
  mfcc_t floor = -INFINITY;
  if (bounded && whole >= 8 && max_topn <= 4) {
    __m256 best = _mm256_loadu_ps(dist);
    for (int cw = 8; cw < whole; cw += 8) best = _mm256_max_ps(best, _mm256_loadu_ps(dist + cw));
    __m128 four = _mm_max_ps(_mm256_castps256_ps128(best), _mm256_extractf128_ps(best, 1));
    __m128 two = _mm_min_ps(four, _mm_movehl_ps(four, four));
    __m128 one = _mm_min_ss(two, _mm_shuffle_ps(two, two, 1));
    floor = _mm_cvtss_f32(one) - 2;
  }
  /* The codewords at least the floor and the worst kept now (which only gets better), in
   * one pass without branches, 64 to a word of bits; then each of them in order. */
  __m256 over = _mm256_set1_ps(fmaxf(floor, (mfcc_t)worst->score));
  int cw = 0;
  while (cw + 8 <= n) {
    uint64_t bits = 0;
    int from = cw;
    for (int shift = 0; shift < 64 && cw + 8 <= n; shift += 8, cw += 8)
      bits |= (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(dist + cw), over, _CMP_GE_OQ)) << shift;
    while (bits) {
      int k = from + __builtin_ctzll(bits);
      bits &= bits - 1;
      consider(topn, max_topn, k, dist[k]);
    }
  }
  return cw;
}
#endif

#if defined(__x86_64__)
/* `distances` for BATCH frames at once (`z[k]`, into `dist[k]`): each codebook's means and
 * precisions are loaded once for all of them. Every frame's scores are the same floats
 * `distances` gives (the same operations in the same order, never fused). */
__attribute__((target("avx2"))) static void distances_batch_avx2(int n, int len, mfcc_t const *const *z,
                                                                   mfcc_t const *mean, mfcc_t const *var,
                                                                   mfcc_t const *det, mfcc_t *const *dist) {
  int cw = 0;
  for (; cw + 8 <= n; cw += 8) {
    __m256 acc[BATCH];
    __m256 start = _mm256_loadu_ps(det + cw);
    for (int k = 0; k < BATCH; ++k) acc[k] = start;
    for (int j = 0; j < len; ++j) {
      __m256 m = _mm256_loadu_ps(mean + (size_t)j * n + cw);
      __m256 v = _mm256_loadu_ps(var + (size_t)j * n + cw);
      for (int k = 0; k < BATCH; ++k) {
        __m256 diff = _mm256_sub_ps(_mm256_set1_ps(z[k][j]), m);
        __m256 sqdiff = _mm256_mul_ps(diff, diff);
        acc[k] = _mm256_sub_ps(acc[k], _mm256_mul_ps(sqdiff, v));
      }
    }
    for (int k = 0; k < BATCH; ++k) _mm256_storeu_ps(dist[k] + cw, acc[k]);
  }
  for (; cw < n; ++cw)
    for (int k = 0; k < BATCH; ++k)
      dist[k][cw] = codeword_score(mean + cw, var + cw, (size_t)n, det[cw], len, z[k]);
}
#endif

/* How many frames from `frame` on (at most `most`) the decoder already holds features of,
 * `feat` being `frame`'s: 1 when the acoustic model's layout does not say the same. */
static int frames_ahead(directme_senone_scorer const *s, mfcc_t **feat, int32_t frame, int most) {
  acmod_mirror const *a = s->acmod;
  if (a == NULL || a->feat_buf == NULL || a->n_feat_alloc < 1 || a->feat_outidx < 0 || a->feat_outidx >= a->n_feat_alloc
      || a->n_feat_frame < 1 || a->n_feat_frame > a->n_feat_alloc || a->output_frame != frame
      || a->feat_buf[a->feat_outidx] != feat)
    return 1;
  return a->n_feat_frame < most ? a->n_feat_frame : most;
}

/* Whether `feat` holds the features `kept` (every stream's, one after another). */
static int same_features(directme_senone_scorer const *s, mfcc_t const *kept, mfcc_t **feat) {
  for (int f = 0; f < s->n_feat; kept += s->featlen[f], ++f)
    if (memcmp(kept, feat[f], (size_t)s->featlen[f] * sizeof(mfcc_t)) != 0) return 0;
  return 1;
}

/* Keeps a frame's features `feat` in `kept`, every stream's one after another. */
static void keep_features(directme_senone_scorer const *s, mfcc_t *kept, mfcc_t **feat) {
  for (int f = 0; f < s->n_feat; kept += s->featlen[f], ++f) memcpy(kept, feat[f], (size_t)s->featlen[f] * sizeof(mfcc_t));
}

/* The codeword scores of every codebook for `frame` ([codebook][stream][codeword]), from the
 * frames scored ahead, scoring the next BATCH frames first when they are not there; NULL when
 * the frames after this one are not at hand (each codebook is then scored on its own). */
static mfcc_t const *batched_distances(directme_senone_scorer *s, mfcc_t **feat, int32_t frame) {
#if defined(__x86_64__)
  if (!s->avx2 || s->batch_dist == NULL) return NULL;
  for (int k = 0; k < s->batch_count; ++k)
    if (s->batch_frame[k] == frame && same_features(s, s->batch_feat + (size_t)k * s->total_featlen, feat)) {
      s->frames_from_batches++;
      return s->batch_dist + (size_t)k * batch_frame_size(s);
    }
  int ahead = frames_ahead(s, feat, frame, BATCH);
  if (ahead < 2) return NULL;
  acmod_mirror const *a = s->acmod;
  mfcc_t **frames[BATCH];
  for (int k = 0; k < BATCH; ++k) {
    /* Past the last frame at hand, the last one again (scored, not kept). */
    frames[k] = a->feat_buf[(a->feat_outidx + (k < ahead ? k : ahead - 1)) % a->n_feat_alloc];
    if (frames[k] == NULL) return NULL;
  }
  for (int k = 0; k < ahead; ++k) {
    keep_features(s, s->batch_feat + (size_t)k * s->total_featlen, frames[k]);
    s->batch_frame[k] = frame + k;
  }
  s->batch_count = ahead;
  s->frames_from_batches++;
  gauden_mirror const *g = s->ptm->g;
  for (int cb = 0; cb < s->n_mgau; ++cb)
    for (int f = 0; f < s->n_feat; ++f) {
      size_t at = (size_t)(cb * s->n_feat + f) * s->n_density;
      mfcc_t const *z[BATCH];
      mfcc_t *dist[BATCH];
      for (int k = 0; k < BATCH; ++k) {
        z[k] = frames[k][f];
        /* Frames past the last at hand are scored into the scratch block. */
        dist[k] = k < ahead ? s->batch_dist + (size_t)k * batch_frame_size(s) + at : s->batch_dist + (size_t)BATCH * batch_frame_size(s);
      }
      size_t block = s->block[cb * s->n_feat + f];
      distances_batch_avx2(s->n_density, s->featlen[f], z, s->mean_t + block, s->var_t + block, g->det[cb][f], dist);
    }
  return s->batch_dist;
#else
  (void)s; (void)feat; (void)frame;
  return NULL;
#endif
}

/* eval_cb's pass over one codebook's codewords, scored `dist`, into `topn`, which holds the
 * previous frame's top codewords (their scores not read). */
static void select_topn_bounded(topn_t *topn, int max_topn, int n, mfcc_t const *dist, int avx2, int bounded) {
  /* eval_topn: the previous frame's top codewords first, in their new order (their scores
   * are the same floats a codeword-by-codeword evaluation gives: same operations, same order). */
  for (int i = 0; i < max_topn; ++i) insertion_sort_topn(topn, i, (int32_t)dist[topn[i].cw]);
  /* The worst kept only gets better as codewords come in: a run of four (eight) all under
   * it now holds no codeword to keep. */
  int cw = 0;
#if defined(__x86_64__)
  if (avx2) cw = select_topn_avx2(topn, max_topn, n, dist, bounded);
  topn_t const *worst = topn + (max_topn - 1);
  for (; cw + 4 <= n; cw += 4) {
    __m128 four = _mm_loadu_ps(dist + cw);
    int mask = _mm_movemask_ps(_mm_cmpge_ps(four, _mm_set1_ps((mfcc_t)worst->score)));
    if (mask == 0) continue;
    for (int k = 0; k < 4; ++k)
      if (mask & (1 << k)) consider(topn, max_topn, cw + k, dist[cw + k]);
  }
#else
  (void)avx2;
#endif
  for (; cw < n; ++cw) consider(topn, max_topn, cw, dist[cw]);
}

static void select_topn(topn_t *topn, int max_topn, int n, mfcc_t const *dist, int avx2) {
  select_topn_bounded(topn, max_topn, n, dist, avx2, 1);
}

long directme_senone_scorer_check_selection(int trials, unsigned seed) {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("avx2")) return -1;
  enum { N = 128, TOP = 4 };
  long differing = 0;
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  mfcc_t dist[N];
  for (int t = 0; t < trials; ++t) {
    /* Scores like a codebook's: negative, many a few units apart, some tied or on whole
     * numbers, a spread that changes from trial to trial. */
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    int spread = 2 + (int)((state >> 33) % 60);
    for (int cw = 0; cw < N; ++cw) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t r = (uint32_t)(state >> 32);
      mfcc_t d = -(mfcc_t)(r % (uint32_t)(spread * 8)) / 8.0f - 100.0f;
      if (r % 7 == 0) d = (mfcc_t)(int)d;
      if (r % 11 == 0 && cw > 0) d = dist[(r >> 8) % (uint32_t)cw];
      dist[cw] = d;
    }
    topn_t first[TOP], second[TOP];
    for (int i = 0; i < TOP; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      int cw;
      int repeated;
      do {
        cw = (int)((state >> 33) % N);
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        repeated = 0;
        for (int j = 0; j < i; ++j) repeated |= first[j].cw == cw;
      } while (repeated);
      first[i].cw = cw;
      first[i].score = 0;
    }
    memcpy(second, first, sizeof first);
    select_topn_bounded(first, TOP, N, dist, 1, 0);
    select_topn_bounded(second, TOP, N, dist, 1, 1);
    differing += memcmp(first, second, sizeof first) != 0;
  }
  return differing;
#else
  (void)trials;
  (void)seed;
  return -1;
#endif
}

/* Top-N codewords of one codebook and stream: pocketsphinx's eval_topn, then eval_cb. Its
 * early exits (a codeword whose partial score falls under the worst kept) change nothing:
 * the partial scores only fall. Here every codeword's score is computed in one pass. */
static void eval_codebook(directme_senone_scorer *s, int cb, int f, mfcc_t const *z, int full, mfcc_t const *known) {
  gauden_mirror const *g = s->ptm->g;
  topn_t *topn = s->topn + ((size_t)cb * s->n_feat + f) * s->max_topn;
  int len = s->featlen[f];
  mfcc_t const *mean = s->mean_t + s->block[cb * s->n_feat + f];
  mfcc_t const *var = s->var_t + s->block[cb * s->n_feat + f];
  mfcc_t const *det = g->det[cb][f];
  if (!full) {
    /* eval_topn alone: the previous frame's top codewords scored again. */
    for (int i = 0; i < s->max_topn; ++i) {
      int cw = topn[i].cw;
      mfcc_t d = codeword_score(mean + cw, var + cw, (size_t)s->n_density, det[cw], len, z);
      insertion_sort_topn(topn, i, (int32_t)d);
    }
    return;
  }
  int n = s->n_density;
  mfcc_t const *dist = known;
  if (dist == NULL) {
#if defined(__x86_64__)
    if (s->avx2)
      distances_avx2(n, len, z, mean, var, det, s->dist);
    else
#endif
      distances(n, len, z, mean, var, det, s->dist);
    dist = s->dist;
  }
  select_topn(topn, s->max_topn, n, dist, s->avx2);
}

/* pocketsphinx's fast_logmath_add on negated logs: the smaller less the table's share. */
static inline int fast_add(uint8_t const *table, int x, int y) {
  int r = x < y ? x : y;
  int d = x < y ? y - x : x - y;
  return r - table[d < ADD_TABLE_SIZE ? d : ADD_TABLE_SIZE - 1];
}

#if defined(__x86_64__)
/* table[d] for eight differences already clamped to [0, SHORT_TABLE - 1], from the table's
 * first 16 entries (`low`) and next 16 (`high`), each in both 128-bit halves: a byte shuffle
 * reads each lane's low byte (its other three bytes have their top bit set, so read as 0),
 * and bit 4 of the difference chooses between the two. The same values a gather reads. */
__attribute__((target("avx2"))) static inline __m256i short_lookup(__m256i low, __m256i high, __m256i d) {
  __m256i index = _mm256_or_si256(d, _mm256_set1_epi32((int)0x80808000u));
  __m256 from_low = _mm256_castsi256_ps(_mm256_shuffle_epi8(low, index));
  __m256 from_high = _mm256_castsi256_ps(_mm256_shuffle_epi8(high, index));
  return _mm256_castps_si256(_mm256_blendv_ps(from_low, from_high, _mm256_castsi256_ps(_mm256_slli_epi32(d, 27))));
}

/* One stream's density of `count` senones listed in `senones`, added to `ascores`: the four
 * mixture-weight rows plus their codewords' scores, log-added as `fast_add` does, eight
 * senones at a time where the list runs contiguously. With a short table (see
 * `short_lookup`) the log-additions are read by byte shuffles, otherwise by gathers. */
__attribute__((target("avx2"))) static void add_stream_avx2(uint8_t const *const rows[4], int const scores[4],
                                                              int const *senones, int count, int32_t *ascores,
                                                              uint8_t const *table, int short_table) {
  /* A difference past the table adds nothing: clamped to its last entry (0). */
  __m256i const limit = _mm256_set1_epi32(short_table ? SHORT_TABLE - 1 : ADD_TABLE_SIZE - 1);
  __m256i const lookup_low = _mm256_broadcastsi128_si256(_mm_loadu_si128((__m128i const *)table));
  __m256i const lookup_high = _mm256_broadcastsi128_si256(_mm_loadu_si128((__m128i const *)(table + 16)));
  __m256i const low_byte = _mm256_set1_epi32(0xff);
  __m256i sc[4];
  for (int j = 0; j < 4; ++j) sc[j] = _mm256_set1_epi32(scores[j]);
  int i = 0;
  while (i < count) {
    int sen = senones[i];
    if (i + 8 <= count && senones[i + 7] == sen + 7) {
      __m256i fden = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((__m128i const *)(rows[0] + sen))), sc[0]);
      for (int j = 1; j < 4; ++j) {
        __m256i v = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((__m128i const *)(rows[j] + sen))), sc[j]);
        __m256i r = _mm256_min_epi32(fden, v);
        __m256i d = _mm256_min_epi32(_mm256_abs_epi32(_mm256_sub_epi32(fden, v)), limit);
        __m256i t = short_table ? short_lookup(lookup_low, lookup_high, d)
                                : _mm256_and_si256(_mm256_i32gather_epi32((int const *)table, d, 1), low_byte);
        fden = _mm256_sub_epi32(r, t);
      }
      __m256i *out = (__m256i *)(ascores + sen);
      _mm256_storeu_si256(out, _mm256_add_epi32(_mm256_loadu_si256(out), fden));
      i += 8;
      continue;
    }
    int fden = rows[0][sen] + scores[0];
    for (int j = 1; j < 4; ++j) fden = fast_add(table, fden, rows[j][sen] + scores[j]);
    ascores[sen] += fden;
    ++i;
  }
}
#endif

/* Every senone, codebook by codebook: each stream's top-N codewords give a row of mixture
 * weights over the codebook's senones. Leaves each senone's score in `ascores`; returns the best. */
static int score_every_senone(directme_senone_scorer *s);

/* Senone `sen`'s mixture weight of codeword `cw` in stream `f` (negated log): read as stored,
 * or through the 4-bit codebook of a model whose weights are quantized, nibble chosen as
 * pocketsphinx's ptm_mgau chooses it. */
static inline int mixture_weight(directme_senone_scorer const *s, int f, int cw, int sen) {
  if (s->mixw_cb == NULL) return s->mixw[f][cw][sen];
  int dcw = s->mixw[f][cw][sen / 2];
  dcw = (dcw & 1) ? dcw >> 4 : dcw & 0x0f;
  return s->mixw_cb[dcw];
}

/* One senone's score (pocketsphinx's ptm_mgau_senone_eval for one senone). */
static inline int score_senone(directme_senone_scorer const *s, int sen) {
  ptm_mirror const *ptm = s->ptm;
  int cb = ptm->sen2cb[sen];
  int ascore = 0;
  for (int f = 0; f < s->n_feat; ++f) {
    topn_t const *topn = s->topn + ((size_t)cb * s->n_feat + f) * s->max_topn;
    int fden = 0;
    for (int j = 0; j < s->max_topn; ++j) {
      int mixw = mixture_weight(s, f, topn[j].cw, sen);
      fden = j == 0 ? mixw + topn[j].score : fast_add(s->add_table, fden, mixw + topn[j].score);
    }
    ascore += fden;
  }
  return ascore;
}

static void evaluate_codebooks(directme_senone_scorer *s, uint8_t const *senone_active, int32_t n_senone_active,
                               mfcc_t **feat, int32_t frame, int32_t compallsen);
static int32_t score_senones(directme_senone_scorer *s, int16_t *senone_scores, uint8_t const *senone_active,
                          int32_t n_senone_active, int32_t compallsen);

static int serve_ahead(directme_senone_scorer *s, int16_t *senone_scores, mfcc_t **feat, int32_t frame);
static void record_fit(directme_senone_scorer *s, int32_t frame, int32_t best);

/* pocketsphinx's ptm_mgau_frame_eval, the same numbers: the top-N codewords of every
 * codebook (of the active ones only, unless every senone is scored), normalized, then the
 * active senones' scores (or every senone's), less the best. */
static int32_t hooked_frame_eval(void *mgau, int16_t *senone_scores, uint8_t *senone_active, int32_t n_senone_active,
                                 mfcc_t **feat, int32_t frame, int32_t compallsen) {
  directme_senone_scorer *s = ((hook_t *)((ptm_mirror *)mgau)->vt)->scorer;
  ptm_mirror *ptm = s->ptm;
  int slot = frame % s->n_hist;
  s->topn = s->ring + (size_t)slot * s->slot_size;
  s->cb_active = s->cb_active_ring + (size_t)slot * s->n_mgau;
  int fresh = frame >= ptm->frame_idx;
  if (fresh && compallsen && serve_ahead(s, senone_scores, feat, frame)) {
    record_fit(s, frame, s->ahead_best[frame - s->ahead_first]);
    return 0;
  }
  s->ahead_next = -1;
  if (fresh) {
    memcpy(s->topn, s->ring + (size_t)((slot + s->n_hist - 1) % s->n_hist) * s->slot_size, s->slot_size * sizeof(topn_t));
    evaluate_codebooks(s, senone_active, n_senone_active, feat, frame, compallsen);
  } else {
    /* A past frame (acmod rewound) keeps the top-N it had, as in ptm_mgau_frame_eval; an
     * active senone of a codebook that frame did not evaluate scores its worst there (as
     * ptm_mgau_senone_eval does), and the codebook then counts as evaluated. */
    for (int i = 0, sen = 0; i < (compallsen ? s->n_sen : n_senone_active); ++i) {
      sen = compallsen ? i : sen + senone_active[i];
      int cb = ptm->sen2cb[sen];
      if (s->cb_active[cb]) continue;
      for (size_t k = 0; k < (size_t)s->n_feat * s->max_topn; ++k) s->topn[(size_t)cb * s->n_feat * s->max_topn + k].score = MAX_NEG_ASCR;
      s->cb_active[cb] = 1;
    }
  }
  int32_t best = score_senones(s, senone_scores, senone_active, n_senone_active, compallsen);
  if (fresh && compallsen) record_fit(s, frame, best);
  return 0;
}

/* The fit of a new frame scored with every senone, its best senone's score `best`. */
static void record_fit(directme_senone_scorer *s, int32_t frame, int32_t best) {
  if (frame == 0) s->fit_count = 0; /* an utterance's frames only */
  if (s->fit_count == s->fit_capacity) {
    long capacity = s->fit_capacity ? 2 * s->fit_capacity : 1024;
    float *grown = realloc(s->fits, (size_t)capacity * sizeof *grown);
    if (grown) {
      s->fits = grown;
      s->fit_capacity = capacity;
    }
  }
  if (s->fit_count < s->fit_capacity) s->fits[s->fit_count++] = (float)s->frame_norm - (float)best;
}

/* ptm_mgau_calc_cb_active, ptm_mgau_codebook_eval and ptm_mgau_codebook_norm on the frame's
 * slot of top-N codewords. */
static void evaluate_codebooks(directme_senone_scorer *s, uint8_t const *senone_active, int32_t n_senone_active,
                               mfcc_t **feat, int32_t frame, int32_t compallsen) {
  ptm_mirror const *ptm = s->ptm;
  if (compallsen) {
    memset(s->cb_active, 1, (size_t)s->n_mgau);
  } else {
    memset(s->cb_active, 0, (size_t)s->n_mgau);
    for (int i = 0, sen = 0; i < n_senone_active; ++i) {
      sen += senone_active[i];
      s->cb_active[ptm->sen2cb[sen]] = 1;
    }
  }
  int full = frame % s->ds_ratio == 0;
  /* Every codebook scored in every frame: several frames at once when they are at hand. */
  mfcc_t const *known = compallsen && s->ds_ratio == 1 ? batched_distances(s, feat, frame) : NULL;
  for (int cb = 0; cb < s->n_mgau; ++cb)
    for (int f = 0; f < s->n_feat; ++f)
      eval_codebook(s, cb, f, feat[f], full && s->cb_active[cb],
                    known ? known + (size_t)(cb * s->n_feat + f) * s->n_density : NULL);
  /* pocketsphinx's ptm_mgau_codebook_norm, over the active codebooks */
  s->frame_norm = 0;
  for (int f = 0; f < s->n_feat; ++f) {
    int32_t norm = WORST_SCORE;
    for (int cb = 0; cb < s->n_mgau; ++cb) {
      if (!s->cb_active[cb]) continue;
      int32_t top = s->topn[((size_t)cb * s->n_feat + f) * s->max_topn].score >> SENSCR_SHIFT;
      if (norm < top) norm = top;
    }
    s->frame_norm += norm;
    for (int cb = 0; cb < s->n_mgau; ++cb) {
      if (!s->cb_active[cb]) continue;
      topn_t *topn = s->topn + ((size_t)cb * s->n_feat + f) * s->max_topn;
      for (int k = 0; k < s->max_topn; ++k) {
        int32_t score = topn[k].score >> SENSCR_SHIFT;
        score -= norm;
        score = -score;
        if (score > MAX_NEG_ASCR) score = MAX_NEG_ASCR;
        topn[k].score = score;
      }
    }
  }
}

/* pocketsphinx's ptm_mgau_senone_eval: the active senones' scores (or every senone's) from
 * the frame's top-N codewords, less the best. */
static int32_t score_senones(directme_senone_scorer *s, int16_t *senone_scores, uint8_t const *senone_active,
                          int32_t n_senone_active, int32_t compallsen) {
  ptm_mirror const *ptm = s->ptm;
  memset(senone_scores, 0, (size_t)s->n_sen * sizeof *senone_scores);
  int bestscore = 0x7fffffff;
  if (compallsen) {
    bestscore = score_every_senone(s);
    for (int sen = 0; sen < s->n_sen; ++sen) senone_scores[sen] = (int16_t)s->ascores[sen];
  } else {
    if (s->mixw_cb == NULL && s->max_topn == 4) {
      int per_cb = s->n_feat * 4;
      for (int cb = 0; cb < s->n_mgau; ++cb) {
        if (!s->cb_active[cb]) continue;
        for (int k = 0; k < per_cb; ++k) {
          topn_t const *place = s->topn + (size_t)cb * per_cb + k;
          s->rows[cb * per_cb + k] = s->mixw[k / 4][place->cw];
          s->row_scores[cb * per_cb + k] = place->score;
        }
      }
      uint8_t const *table = s->add_table;
      for (int i = 0, sen = 0; i < n_senone_active; ++i) {
        sen += senone_active[i];
        int base = ptm->sen2cb[sen] * per_cb;
        uint8_t const *const *rows = s->rows + base;
        int const *scores = s->row_scores + base;
        int ascore = 0;
        for (int f = 0; f < s->n_feat; ++f, rows += 4, scores += 4) {
          int fden = rows[0][sen] + scores[0];
          fden = fast_add(table, fden, rows[1][sen] + scores[1]);
          fden = fast_add(table, fden, rows[2][sen] + scores[2]);
          fden = fast_add(table, fden, rows[3][sen] + scores[3]);
          ascore += fden;
        }
        if (ascore < bestscore) bestscore = ascore;
        senone_scores[sen] = (int16_t)ascore;
      }
    } else {
      for (int i = 0, sen = 0; i < n_senone_active; ++i) {
        sen += senone_active[i];
        int ascore = score_senone(s, sen);
        if (ascore < bestscore) bestscore = ascore;
        senone_scores[sen] = (int16_t)ascore;
      }
    }
  }
  for (int sen = 0; sen < s->n_sen; ++sen) senone_scores[sen] = (int16_t)(senone_scores[sen] - bestscore);
  return bestscore;
}

static int score_every_senone(directme_senone_scorer *s) {
  ptm_mirror const *ptm = s->ptm;
  uint8_t const *table = s->add_table;
  int bestscore = 0x7fffffff;
  for (int cb = 0; cb < s->n_mgau; ++cb) {
    int const *senones = s->cb_senones + s->cb_start[cb];
    int count = s->cb_start[cb + 1] - s->cb_start[cb];
    if (count == 0) continue;
    for (int i = 0; i < count; ++i) s->ascores[senones[i]] = 0;
    for (int f = 0; f < s->n_feat; ++f) {
      topn_t const *topn = s->topn + ((size_t)cb * s->n_feat + f) * s->max_topn;
#if defined(__x86_64__)
      if (s->mixw_cb == NULL && s->max_topn == 4 && s->avx2) {
        uint8_t const *const rows[4] = {
          s->mixw[f][topn[0].cw], s->mixw[f][topn[1].cw], s->mixw[f][topn[2].cw], s->mixw[f][topn[3].cw]};
        int const scores[4] = {topn[0].score, topn[1].score, topn[2].score, topn[3].score};
        add_stream_avx2(rows, scores, senones, count, s->ascores, table, s->short_table);
        continue;
      }
#endif
      if (s->mixw_cb == NULL && s->max_topn == 4) {
        uint8_t const *r0 = s->mixw[f][topn[0].cw], *r1 = s->mixw[f][topn[1].cw];
        uint8_t const *r2 = s->mixw[f][topn[2].cw], *r3 = s->mixw[f][topn[3].cw];
        int s0 = topn[0].score, s1 = topn[1].score, s2 = topn[2].score, s3 = topn[3].score;
        for (int i = 0; i < count; ++i) {
          int sen = senones[i];
          int fden = r0[sen] + s0;
          fden = fast_add(table, fden, r1[sen] + s1);
          fden = fast_add(table, fden, r2[sen] + s2);
          fden = fast_add(table, fden, r3[sen] + s3);
          s->ascores[sen] += fden;
        }
        continue;
      }
      for (int i = 0; i < count; ++i) {
        int sen = senones[i];
        int fden = 0;
        for (int j = 0; j < s->max_topn; ++j) {
          int mixw = mixture_weight(s, f, topn[j].cw, sen);
          fden = j == 0 ? mixw + topn[j].score : fast_add(table, fden, mixw + topn[j].score);
        }
        s->ascores[sen] += fden;
      }
    }
    for (int i = 0; i < count; ++i)
      if (s->ascores[senones[i]] < bestscore) bestscore = s->ascores[senones[i]];
  }
  return bestscore;
}

/* Frames scored ahead: when every senone is scored and the frames after this one are at
 * hand (a whole utterance decoded at once), up to BATCH frames are scored together, each
 * codebook's Gaussians read once for all of them, and split by codebook between this thread
 * and a helper (`directme_senone_scorer_set_threads`): a codebook's top-N codewords go on
 * from frame to frame on their own, and its senones read only its top-N. The codeword
 * normalization, which takes every codebook's best, comes between. The numbers are the same
 * as one frame after another (the same operations on each codebook, in the same order; the
 * senone scores are sums of integers). */

#if defined(__x86_64__)
/* How long a waiting thread spins before it sleeps: the main thread waiting for the helper's
 * half of a phase (about as long as its own, so soon over), the helper waiting for the second
 * phase (which comes once this thread has its half of the first and the normalization: soon
 * too), and for the next first phase (after the second, the decoder searches the frames before
 * asking for more: it sleeps). */
enum { MAIN_SPINS = 2000, HELPER_SPINS_BETWEEN_PHASES = 20000, HELPER_SPINS = 20 };

static void futex_wait(_Atomic uint32_t *address, uint32_t value) {
#if defined(__linux__)
  syscall(SYS_futex, (uint32_t *)address, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
#else
  (void)address; (void)value;
  _mm_pause();
#endif
}

static void futex_wake(_Atomic uint32_t *address) {
#if defined(__linux__)
  syscall(SYS_futex, (uint32_t *)address, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
  (void)address;
#endif
}

/* Waits until `*address` no longer holds `value` (spinning a little, then sleeping, with
 * `*sleeps` set meanwhile); returns what it holds. */
static uint32_t wait_change(_Atomic uint32_t *address, uint32_t value, int spins, _Atomic int *sleeps) {
  for (int i = 0; i < spins; ++i) {
    uint32_t now = atomic_load_explicit(address, memory_order_acquire);
    if (now != value) return now;
    _mm_pause();
  }
  atomic_store(sleeps, 1);
  for (;;) {
    /* Sequentially consistent with `post`: either the poster sees `sleeps` set and wakes
     * this thread, or this load sees the new value (the kernel also compares before it
     * sleeps). */
    uint32_t now = atomic_load(address);
    if (now != value) {
      atomic_store_explicit(sleeps, 0, memory_order_relaxed);
      return now;
    }
    futex_wait(address, value);
  }
}

/* Stores `value` at `address` and wakes the thread waiting on it if it may be asleep. */
static void post(_Atomic uint32_t *address, uint32_t value, _Atomic int *sleeps) {
  atomic_store(address, value);
  if (atomic_load(sleeps)) futex_wake(address);
}

/* Phase 0: the codebooks [lo, hi)'s codeword scores for the frames ahead, and their top-N
 * from frame to frame; phase 1: their top-N normalized, and their senones scored. `part`: 0
 * or 1, where the part's best scores go. */
static void ahead_part(directme_senone_scorer *s, int part, int phase) {
  int lo = part == 0 ? 0 : s->split, hi = part == 0 ? s->split : s->n_mgau;
  int n = s->ahead_count;
  int nf = s->n_feat, top = s->max_topn;
  gauden_mirror const *g = s->ptm->g;
  if (phase == 0) {
    for (int k = 0; k < n; ++k)
      for (int f = 0; f < nf; ++f) s->part_top[part][k][f] = WORST_SCORE;
    topn_t const *previous = s->ring + (size_t)((s->ahead_first + s->n_hist - 1) % s->n_hist) * s->slot_size;
    mfcc_t *scratch = s->ahead_scratch + (size_t)part * s->n_density;
    /* The codebook's codeword scores, frame by frame, until its top-N are chosen. */
    mfcc_t *frame_dist = s->part_dist + (size_t)part * AHEAD * s->n_density;
    for (int cb = lo; cb < hi; ++cb)
      for (int f = 0; f < nf; ++f) {
        size_t block = s->block[cb * nf + f];
        for (int first = 0; first < n; first += BATCH) {
          mfcc_t const *z[BATCH];
          mfcc_t *dist[BATCH];
          for (int k = 0; k < BATCH; ++k) {
            int at_hand = first + k < n;
            z[k] = s->ahead_frames[at_hand ? first + k : n - 1][f];
            /* Frames past the last at hand are scored into the part's scratch block. */
            dist[k] = at_hand ? frame_dist + (size_t)(first + k) * s->n_density : scratch;
          }
          distances_batch_avx2(s->n_density, s->featlen[f], z, s->mean_t + block, s->var_t + block, g->det[cb][f], dist);
        }
        topn_t chain[MAX_TOPN];
        size_t place = (size_t)(cb * nf + f) * top;
        memcpy(chain, previous + place, (size_t)top * sizeof(topn_t));
        for (int k = 0; k < n; ++k) {
          select_topn(chain, top, s->n_density, frame_dist + (size_t)k * s->n_density, 1);
          memcpy(s->ahead_topn + (size_t)k * s->slot_size + place, chain, (size_t)top * sizeof(topn_t));
          int32_t best = chain[0].score >> SENSCR_SHIFT;
          if (best > s->part_top[part][k][f]) s->part_top[part][k][f] = best;
        }
      }
    return;
  }
  uint8_t const *table = s->add_table;
  int32_t *ascores = s->part_ascores + (size_t)part * s->n_sen;
  for (int k = 0; k < n; ++k) {
    int16_t *kept = s->ahead_ascores + (size_t)k * s->n_sen;
    int best = 0x7fffffff;
    for (int cb = lo; cb < hi; ++cb) {
      int const *senones = s->cb_senones + s->cb_start[cb];
      int count = s->cb_start[cb + 1] - s->cb_start[cb];
      for (int f = 0; f < nf; ++f) {
        topn_t *topn = s->ahead_topn + (size_t)k * s->slot_size + (size_t)(cb * nf + f) * top;
        int32_t norm = s->ahead_stream_norm[k][f];
        for (int j = 0; j < top; ++j) {
          int32_t score = topn[j].score >> SENSCR_SHIFT;
          score -= norm;
          score = -score;
          if (score > MAX_NEG_ASCR) score = MAX_NEG_ASCR;
          topn[j].score = score;
        }
      }
      if (count == 0) continue;
      for (int i = 0; i < count; ++i) ascores[senones[i]] = 0;
      for (int f = 0; f < nf; ++f) {
        topn_t const *topn = s->ahead_topn + (size_t)k * s->slot_size + (size_t)(cb * nf + f) * top;
        uint8_t const *const rows[4] = {
          s->mixw[f][topn[0].cw], s->mixw[f][topn[1].cw], s->mixw[f][topn[2].cw], s->mixw[f][topn[3].cw]};
        int const scores[4] = {topn[0].score, topn[1].score, topn[2].score, topn[3].score};
        add_stream_avx2(rows, scores, senones, count, ascores, table, s->short_table);
      }
      for (int i = 0; i < count; ++i) {
        int32_t score = ascores[senones[i]];
        if (score < best) best = score;
        kept[senones[i]] = (int16_t)score;
      }
    }
    s->part_best[part][k] = best;
  }
}

static void *helper_main(void *argument) {
  directme_senone_scorer *s = argument;
  uint32_t seen = 0;
  int phase = 1; /* the phase it last scored */
  for (;;) {
    seen = wait_change(&s->go, seen, phase == 0 ? HELPER_SPINS_BETWEEN_PHASES : HELPER_SPINS, &s->helper_sleeps);
    if (atomic_load(&s->quit)) return NULL;
    phase = s->phase;
    ahead_part(s, 1, phase);
    post(&s->done, seen, &s->main_sleeps);
  }
}

/* One phase of `ahead_part` over every codebook: the second part by the helper, if any. */
static void run_phase(directme_senone_scorer *s, int phase) {
  if (!s->helper_running) {
    ahead_part(s, 0, phase);
    ahead_part(s, 1, phase);
    return;
  }
  s->phase = phase;
  uint32_t ticket = atomic_load_explicit(&s->go, memory_order_relaxed) + 1;
  post(&s->go, ticket, &s->helper_sleeps);
  ahead_part(s, 0, phase);
  uint32_t answer = atomic_load_explicit(&s->done, memory_order_acquire);
  while (answer != ticket) answer = wait_change(&s->done, answer, MAIN_SPINS, &s->main_sleeps);
}

/* Scores the frames from `frame` on (`feat` its features, the next ones at hand) into the
 * `ahead` arrays; 0 when fewer than two are at hand or the model is not one this path reads. */
static int score_ahead(directme_senone_scorer *s, mfcc_t **feat, int32_t frame) {
  if (!s->avx2 || s->ds_ratio != 1 || s->mixw_cb != NULL || s->max_topn != 4 || s->ahead_topn == NULL) return 0;
  int n = frames_ahead(s, feat, frame, AHEAD);
  if (n < 2) return 0;
  acmod_mirror const *a = s->acmod;
  for (int k = 0; k < n; ++k) {
    s->ahead_frames[k] = a->feat_buf[(a->feat_outidx + k) % a->n_feat_alloc];
    if (s->ahead_frames[k] == NULL) return 0;
    keep_features(s, s->ahead_feat + (size_t)k * s->total_featlen, s->ahead_frames[k]);
  }
  s->ahead_first = frame;
  s->ahead_count = n;
  run_phase(s, 0);
  for (int k = 0; k < n; ++k) {
    s->ahead_norm[k] = 0;
    for (int f = 0; f < s->n_feat; ++f) {
      int32_t norm = s->part_top[0][k][f] > s->part_top[1][k][f] ? s->part_top[0][k][f] : s->part_top[1][k][f];
      s->ahead_stream_norm[k][f] = norm;
      s->ahead_norm[k] += norm;
    }
  }
  run_phase(s, 1);
  for (int k = 0; k < n; ++k) s->ahead_best[k] = s->part_best[0][k] < s->part_best[1][k] ? s->part_best[0][k] : s->part_best[1][k];
  s->ahead_next = frame;
  return 1;
}
#endif

/* `frame`'s senone scores from the frames scored ahead, scoring the next ones first when
 * `frame` is not the one they serve next; 0 when this path does not serve it. Its top-N go
 * to its slot of the ring, as scoring it alone leaves them. */
static int serve_ahead(directme_senone_scorer *s, int16_t *senone_scores, mfcc_t **feat, int32_t frame) {
#if defined(__x86_64__)
  int k = frame - s->ahead_first;
  int ready = s->ahead_next >= 0 && frame == s->ahead_next && k >= 0 && k < s->ahead_count
    && same_features(s, s->ahead_feat + (size_t)k * s->total_featlen, feat);
  if (!ready) {
    /* Scored from `feat` itself (`frames_ahead` asks it to be the decoder's frame at hand). */
    s->ahead_next = -1;
    if (!score_ahead(s, feat, frame)) return 0;
    k = 0;
  }
  int slot = frame % s->n_hist;
  s->topn = s->ring + (size_t)slot * s->slot_size;
  s->cb_active = s->cb_active_ring + (size_t)slot * s->n_mgau;
  memcpy(s->topn, s->ahead_topn + (size_t)k * s->slot_size, s->slot_size * sizeof(topn_t));
  memset(s->cb_active, 1, (size_t)s->n_mgau);
  s->frame_norm = s->ahead_norm[k];
  int16_t const *ascores = s->ahead_ascores + (size_t)k * s->n_sen;
  int32_t best = s->ahead_best[k];
  for (int sen = 0; sen < s->n_sen; ++sen) senone_scores[sen] = (int16_t)(ascores[sen] - best);
  s->frames_from_batches++;
  s->ahead_next = frame + 1;
  return 1;
#else
  (void)s; (void)senone_scores; (void)feat; (void)frame;
  return 0;
#endif
}

int directme_senone_scorer_set_threads(directme_senone_scorer *s, int threads) {
  if (s == NULL) return 1;
#if defined(__x86_64__) && defined(__linux__)
  if (threads >= 2 && !s->helper_running && s->avx2 && s->ahead_topn != NULL) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    atomic_store(&s->quit, 0);
    s->helper_running = pthread_create(&s->helper, &attributes, helper_main, s) == 0;
    pthread_attr_destroy(&attributes);
  } else if (threads < 2 && s->helper_running) {
    atomic_store(&s->quit, 1);
    atomic_fetch_add(&s->go, 1);
    futex_wake(&s->go);
    pthread_join(s->helper, NULL);
    s->helper_running = 0;
  }
#else
  (void)threads;
#endif
  return s->helper_running ? 2 : 1;
}

int directme_senone_scorer_threads(directme_senone_scorer const *s) { return s != NULL && s->helper_running ? 2 : 1; }

/* Whether two scorers' models have the same codebooks: as many, of as many codewords, in
 * streams of the same widths. */
static int same_codebooks(directme_senone_scorer const *a, directme_senone_scorer const *b) {
  if (a->n_mgau != b->n_mgau || a->n_feat != b->n_feat || a->n_density != b->n_density) return 0;
  for (int f = 0; f < a->n_feat; ++f)
    if (a->featlen[f] != b->featlen[f]) return 0;
  return 1;
}

int directme_senone_scorer_share_weights(directme_senone_scorer *scorer, directme_senone_scorer const *from) {
  if (scorer == NULL || from == NULL || scorer == from) return 0;
  if (!same_codebooks(scorer, from) || scorer->n_sen != from->n_sen || (scorer->mixw_cb == NULL) != (from->mixw_cb == NULL))
    return 0;
  for (int sen = 0; sen < scorer->n_sen; ++sen)
    if (scorer->ptm->sen2cb[sen] != from->ptm->sen2cb[sen]) return 0;
  if (scorer->mixw_cb != NULL && memcmp(scorer->mixw_cb, from->mixw_cb, 16 * sizeof *scorer->mixw_cb) != 0) return 0;
  scorer->mixw = from->mixw;
  scorer->mixw_cb = from->mixw_cb;
  return 1;
}

int directme_senone_scorer_share_gaussians(directme_senone_scorer *s, directme_senone_scorer *from) {
  if (s == NULL || from == NULL || s == from || !s->in_place || !from->in_place || s->gauss_from != NULL ||
      from->gauss_from != NULL || s->n_gauss_sharers > 0 || from->n_gauss_sharers >= MAX_GAUSS_SHARERS)
    return 0;
  if (!same_codebooks(s, from) || s->gauss_total != from->gauss_total) return 0;
  if (memcmp(s->mean_t, from->mean_t, s->gauss_total * sizeof(mfcc_t)) != 0 ||
      memcmp(s->var_t, from->var_t, s->gauss_total * sizeof(mfcc_t)) != 0)
    return 0;
  s->own_mean_t = s->mean_t;
  s->own_var_t = s->var_t;
  s->mean_t = from->mean_t;
  s->var_t = from->var_t;
  s->gauss_from = from;
  from->gauss_sharers[from->n_gauss_sharers++] = s;
  drop_pages(s->own_mean_t, s->gauss_total * sizeof(mfcc_t));
  drop_pages(s->own_var_t, s->gauss_total * sizeof(mfcc_t));
  return 1;
}

int directme_senone_scorer_shares_gaussians(directme_senone_scorer const *s) { return s != NULL && s->gauss_from != NULL; }
