#ifndef DIRECTME_CPOCKETSPHINX_SHIM_H
#define DIRECTME_CPOCKETSPHINX_SHIM_H

#include <stdarg.h>
#include <stdio.h>
#include <malloc.h> /* mallopt: where big senone-score dumps live (Decoder.swift) */
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/fe.h>

/// A log line from sphinxbase, already formatted (Swift cannot receive C varargs).
typedef void (*directme_log_line_f)(int level, const char *line);

/// sphinxbase's log callback is variadic, which Swift cannot implement; this
/// formats each message and hands the finished line to a non-variadic function.
static inline void directme_sphinx_log(void *user_data, err_lvl_t level, const char *format, ...) {
  char line[2048];
  va_list ap;
  va_start(ap, format);
  vsnprintf(line, sizeof line, format, ap);
  va_end(ap);
  directme_log_line_f forward = (directme_log_line_f)user_data;
  if (forward) forward((int)level, line);
}

/// Routes sphinxbase's log to `forward` (NULL silences it).
static inline void directme_sphinx_set_log(directme_log_line_f forward) {
  err_set_logfp(NULL); /* no direct writes to stderr (the configuration dump) */
  err_set_callback(directme_sphinx_log, (void *)forward);
}

/* Senone score dumps (pocketsphinx's acmod, not in its public headers). */
int acmod_set_senfh(void *acmod, FILE *logfh);
void acmod_grow_feat_buf(void *acmod, int nfr);

/// The decoder's acoustic model (its `acmod_t`), for sharing senone scores between searches
/// of the same audio; NULL when the decoder's layout is not the one this was written for
/// (pocketsphinx 5prealpha: `ps_decoder_t` starts config, refcount, acmod; `acmod_t` starts
/// config, lmath, strings, fe, fcb), checked against the public getters.
static inline void *directme_acmod(ps_decoder_t *ps) {
  struct decoder_head { cmd_ln_t *config; int refcount; void **acmod; };
  struct decoder_head const *head = (struct decoder_head const *)(void *)ps;
  if (head->config != ps_get_config(ps) || head->acmod == NULL) return NULL;
  void **acmod = head->acmod;
  if (acmod[0] != (void *)ps_get_config(ps) || acmod[1] != (void *)ps_get_logmath(ps)
      || acmod[3] != (void *)ps_get_fe(ps) || acmod[4] != (void *)ps_get_feat(ps))
    return NULL;
  return acmod;
}

/// Puts `fe` in the place of the decoder's front end (its `acmod_t`'s) and returns the one
/// it had, for the utterances started until it is put back; NULL (and nothing changed) when
/// the decoder's layout is not the one `directme_acmod` knows or `fe` is NULL. The decoder
/// keeps its reference to its own front end: the caller puts it back before freeing `fe`.
static inline fe_t *directme_swap_front_end(ps_decoder_t *ps, fe_t *fe) {
  void **acmod = directme_acmod(ps);
  if (acmod == NULL || fe == NULL) return NULL;
  fe_t *own = (fe_t *)acmod[3];
  acmod[3] = fe;
  return own;
}

#endif
