/* Gemma 1, 2 and 3 (transformers' modeling_gemma.py, modeling_gemma2.py,
 * modeling_gemma3.py). All tie the output table to the embedding by default and take
 * head_dim 256 by default, so q and o are hidden x heads x head_dim. Gemma has two norms a
 * layer; Gemma 2 four (before and after attention and the feed-forward block); Gemma 3
 * four and a head_dim norm on q and on k. Gemma 2 slides every even layer (window 4096 by
 * default), Gemma 3 all but every sliding_window_pattern-th (default 6), unless layer_types
 * says. gemma3 (image and text) holds that language model under text_config and a SigLIP
 * vision tower under vision_config; both are counted, the tower as weights a word does not
 * read (modeling_siglip.py, and Gemma3MultiModalProjector). */
#include "families.h"

/* The classes' defaults, transformers' models/gemma/configuration_gemma.py (GemmaConfig),
 * models/gemma2/configuration_gemma2.py (Gemma2Config), both at commit 008e5743, and
 * models/gemma3/configuration_gemma3.py (Gemma3TextConfig, at 008f5c8c): vocab, hidden,
 * layers, heads, key/value heads, head_dim; and each one's intermediate_size. Google's own
 * gemma-3-4b-it config leaves vocab, heads, key/value heads and head_dim to these. */
static const gs_class_defaults CLASSES[] = {{256000, 3072, 28, 16, 16, 256}, {256000, 2304, 26, 8, 4, 256}, {262208, 2304, 26, 8, 4, 256}};
static const uint64_t WIDTHS[] = {24576, 9216, 9216};
static const uint64_t WINDOW = 4096;         /* Gemma2Config's and Gemma3TextConfig's sliding_window */
static const uint64_t GEMMA3_PATTERN = 6;    /* Gemma3TextConfig's sliding_window_pattern */
/* SiglipVisionConfig's (models/siglip/configuration_siglip.py): hidden_size, intermediate_size,
 * num_hidden_layers, patch_size, image_size, num_channels. */
static const uint64_t SIGLIP[] = {768, 3072, 12, 16, 224, 3};

enum generation { GEMMA1, GEMMA2, GEMMA3 };

static int cache(const gs_config *c, gs_model *m, enum generation g) {
  uint64_t sliding = 0, window = WINDOW, pattern = GEMMA3_PATTERN;
  int present, rc;
  if (g == GEMMA1) return gs_decoder_cache(m, 0, 0, c->err);
  if ((rc = gs_config_layer_types(c, m->layers, &sliding, &present)) != GS_OK) return rc;
  if (!present && g == GEMMA2) sliding = (m->layers + 1) / 2;
  if (!present && g == GEMMA3) {
    const char *key = gs_config_has(c, "sliding_window_pattern") ? "sliding_window_pattern" : "_sliding_window_pattern";
    if ((rc = gs_config_count(c, key, &pattern, &pattern)) != GS_OK) return rc;
    sliding = m->layers - m->layers / pattern;
  }
  if ((rc = gs_config_count(c, "sliding_window", &window, &window)) != GS_OK) return rc;
  return gs_decoder_cache(m, sliding, window, c->err);
}

static int count_language(const gs_config *c, gs_tally *t, gs_model *m, enum generation g) {
  int rc, attention_bias = 0;
  if ((rc = gs_decoder_read(c, &CLASSES[g], m)) != GS_OK ||
      (rc = gs_config_class(c, "intermediate_size", WIDTHS[g], &m->ffn_width)) != GS_OK ||
      (rc = gs_config_bool(c, "attention_bias", 0, &attention_bias)) != GS_OK)
    return rc;
  gs_decoder_attention(t, m, attention_bias, attention_bias);
  if (g == GEMMA3) gs_tally_vector(t, GS_PART_NORM, 2 * m->layers, m->head_dim);
  gs_decoder_mlp(t, GS_PART_MLP, m->layers, m->hidden, m->ffn_width, 0);
  gs_tally_vector(t, GS_PART_NORM, (g == GEMMA1 ? 2 : 4) * m->layers, m->hidden);
  if ((rc = gs_decoder_tables(c, t, m, 1)) != GS_OK) return rc;
  return cache(c, m, g);
}

int gs_count_gemma(const gs_config *c, gs_tally *t, gs_model *m) { return count_language(c, t, m, GEMMA1); }
int gs_count_gemma2(const gs_config *c, gs_tally *t, gs_model *m) { return count_language(c, t, m, GEMMA2); }
int gs_count_gemma3_text(const gs_config *c, gs_tally *t, gs_model *m) { return count_language(c, t, m, GEMMA3); }

/* An object member of the top object, as a config of its own. Left out or null, Gemma3Config
 * builds its class with every default (Gemma3TextConfig(), SiglipVisionConfig()): a config
 * with no keys (object -1). */
static int nested(const gs_config *c, const char *key, gs_config *out) {
  int at = gs_json_find(c->json, c->object, key);
  *out = *c;
  out->classed = 1;
  if (at < 0 || gs_json_is_null(c->json, at)) {
    out->object = -1;
    return GS_OK;
  }
  if (c->json->toks[at].type != JSMN_OBJECT) return gs_fail(c->err, GS_ERR_TYPE, key, "must be an object");
  out->object = at;
  return GS_OK;
}

/* SigLIP without its pooling head: a patch embedding (a convolution with a bias), a
 * position embedding per patch, layers of two layer norms (weight and bias), four
 * projections with biases and a two-matrix feed-forward block with biases, and a final
 * layer norm; then the projector to the language model's width and its norm. */
static int count_vision(const gs_config *v, gs_tally *t, uint64_t text_hidden) {
  uint64_t hidden, width, layers, patch, image, channels, side;
  int rc, head;
  if ((rc = gs_config_class(v, "hidden_size", SIGLIP[0], &hidden)) != GS_OK ||
      (rc = gs_config_class(v, "intermediate_size", SIGLIP[1], &width)) != GS_OK ||
      (rc = gs_config_class(v, "num_hidden_layers", SIGLIP[2], &layers)) != GS_OK ||
      (rc = gs_config_class(v, "patch_size", SIGLIP[3], &patch)) != GS_OK ||
      (rc = gs_config_class(v, "image_size", SIGLIP[4], &image)) != GS_OK ||
      (rc = gs_config_class(v, "num_channels", SIGLIP[5], &channels)) != GS_OK ||
      (rc = gs_config_bool(v, "vision_use_head", 1, &head)) != GS_OK)
    return rc;
  /* modeling_siglip.py builds the head unless vision_use_head is there and false */
  if (head) return gs_config_refuse(v, "vision_use_head", "true or absent: a SigLIP pooling head, which gemma3 does not use, is not counted");
  side = image / patch;
  gs_tally_matrix(t, GS_PART_VISION, 1, hidden, gs_tally_mul(t, channels, gs_tally_mul(t, patch, patch)));
  gs_tally_vector(t, GS_PART_VISION, 1, hidden);
  gs_tally_matrix(t, GS_PART_VISION, 1, gs_tally_mul(t, side, side), hidden);
  gs_tally_vector(t, GS_PART_VISION, 4 * layers, hidden);
  gs_tally_matrix(t, GS_PART_VISION, 4 * layers, hidden, hidden);
  gs_tally_vector(t, GS_PART_VISION, 4 * layers, hidden);
  gs_tally_matrix(t, GS_PART_VISION, layers, width, hidden);
  gs_tally_vector(t, GS_PART_VISION, layers, width);
  gs_tally_matrix(t, GS_PART_VISION, layers, hidden, width);
  gs_tally_vector(t, GS_PART_VISION, layers, hidden);
  gs_tally_vector(t, GS_PART_VISION, 2, hidden);
  gs_tally_matrix(t, GS_PART_VISION, 1, hidden, text_hidden);
  gs_tally_vector(t, GS_PART_VISION, 1, hidden);
  return GS_OK;
}

int gs_count_gemma3(const gs_config *c, gs_tally *t, gs_model *m) {
  gs_config text, vision;
  int rc;
  if ((rc = nested(c, "text_config", &text)) != GS_OK || (rc = nested(c, "vision_config", &vision)) != GS_OK ||
      (rc = count_language(&text, t, m, GEMMA3)) != GS_OK || (rc = count_vision(&vision, t, m->hidden)) != GS_OK)
    return rc;
  gs_format(m->note, sizeof m->note, "with the SigLIP vision tower and projector, which no word reads");
  return GS_OK;
}
