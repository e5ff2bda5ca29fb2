/* The engine's command line (--emit): the layout a setting priced, as the command that starts
 * vLLM, SGLang or TensorRT-LLM on it. Each engine's template below names the source its flags
 * were taken from; tests/c/engine_flags/ keeps those names, and tests/c/emit_test.sh holds
 * every emitted flag to them.
 *
 * gpusplit's words in an engine's (csrc/gpusplit.h, enum gs_split and gs_experts):
 * - slices: tensor parallel over the layout's GPUs (TP n);
 * - groups: pipeline parallel, one GPU a stage (PP n);
 * - slices-groups: slices within a server, groups across (TP per_server x PP servers), or
 *   plain slices when the layout fits one server;
 * - experts spread: expert parallel over the n GPUs with attention data-parallel on each
 *   (EP n, attention DP n, attention TP 1);
 * - replicas: data-parallel copies of the whole layout, each serving its own chats.
 * Only what the figures assumed is written: the cache's type (--cache-bits), the memory share
 * (gs_gpu.usable) where the engine's share means the same, the context (--chat-tokens) and the
 * chats a scheduler keeps (--words, times the batches in flight). A setting an engine cannot
 * start exactly is refused by name. */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

int gs_launch_sizes_of(const gs_setting *s, uint64_t n, gs_launch_sizes *out, gs_error *err) {
  gs_plan p = s->plan;
  int rc = gs_count_allowed(s, n, err);
  if (rc != GS_OK) return rc;
  p.gpus = n;
  memset(out, 0, sizeof *out);
  out->servers = gs_plan_servers(&p);
  out->replicas = s->replicas;
  out->ep = s->model.experts ? 1 : 0;
  out->attention_dp = 1;
  out->tp = n;
  out->pp = 1;
  out->batches = gs_plan_batches(&p);
  out->chats = p.words * out->batches;
  if (p.experts == GS_EXPERTS_SPREAD) {
    out->tp = 1;
    out->ep = n;
    out->attention_dp = n;
    out->chats = gs_spread_chats(&p); /* each GPU serves its own ceil(W / n) chats */
  } else if (p.split == GS_GROUPS) {
    out->tp = 1;
    out->pp = n;
  } else if (p.split == GS_SLICES_GROUPS && out->servers > 1) {
    out->tp = p.per_server;
    out->pp = out->servers;
  }
  return GS_OK;
}

/* ---- Writing the lines ---- */

typedef struct {
  char *buf;
  size_t cap, at;
  int cut; /* 1: something did not fit */
} launch_writer;

static void put(launch_writer *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(launch_writer *w, const char *fmt, ...) {
  va_list ap;
  size_t n;
  if (w->at + 1 >= w->cap) {
    w->cut = 1;
    return;
  }
  va_start(ap, fmt);
  n = gs_vformat(w->buf + w->at, w->cap - w->at, fmt, ap);
  va_end(ap);
  w->at += n;
  if (w->at + 1 >= w->cap) w->cut = 1;
}

static void put_char(launch_writer *w, char c) {
  if (w->at + 1 >= w->cap) {
    w->cut = 1;
    return;
  }
  w->buf[w->at++] = c;
  w->buf[w->at] = '\0';
}

/* A word for the shell: as it is when every byte is plain, else in single quotes (a quote
 * inside written '\''), so a model path with spaces or $ reaches the engine as typed. */
static void put_word(launch_writer *w, const char *word) {
  const char *c;
  int plain = word[0] != '\0';
  for (c = word; *c && plain; c++)
    plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("._/:@+=,-", *c);
  if (plain) {
    put(w, "%s", word);
    return;
  }
  put_char(w, '\'');
  for (c = word; *c; c++) {
    if (*c == '\'') put(w, "'\\''");
    else put_char(w, *c);
  }
  put_char(w, '\'');
}

/* x (0 < x <= 1, a memory share) in the fewest places, up to 9, that read back as x exactly:
 * a division of two exact integers rounds once, as reading the text does. 0 when none does. */
static int share_text(double x, char *out, size_t cap) {
  int places;
  for (places = 1; places <= 9; places++) {
    uint64_t scale = 1, digits = 0;
    const char *c;
    int i;
    for (i = 0; i < places; i++) scale *= 10;
    gs_fixed(out, cap, x, places);
    for (c = out; *c; c++)
      if (*c >= '0' && *c <= '9') digits = digits * 10 + (uint64_t)(*c - '0');
    if ((double)digits / (double)scale == x) {
      size_t len = strlen(out);
      while (len > 1 && out[len - 1] == '0' && out[len - 2] != '.') out[--len] = '\0';
      return 1;
    }
  }
  return 0;
}

/* ---- What every engine needs the same ---- */

/* What a template writes from: the setting, its count, and what was checked. */
typedef struct {
  const gs_setting *s;
  uint64_t n;
  gs_launch_sizes z;
  char model[4096];  /* the name the engine loads */
  char share[24];    /* the memory share as text */
} launch_input;

/* The name the engine loads: a catalogue model's Hugging Face repository, or --model as given
 * (a config.json's own folder, which holds the weights beside it in a checkpoint's layout). */
static int served_model(const gs_setting *s, launch_input *in, gs_error *err) {
  const gs_model_entry *e = s->model_entry; /* NULL for a config given as text */
  const char *name = e && e->model[0] ? e->model : s->model_name;
  size_t len = strlen(name);
  if (gs_utf8_invalid_at(name, len) != len)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "the model's name is not UTF-8 text, so no command can name it");
  for (const char *c = name; *c; c++)
    if ((unsigned char)*c < 0x20 || *c == 0x7f)
      return gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "the model's name holds a control character, so no command can name it");
  gs_format(in->model, sizeof in->model, "%s", name);
  len = strlen(in->model);
  if (len >= 11 && strcmp(in->model + len - 11, "config.json") == 0 && (len == 11 || in->model[len - 12] == '/'))
    gs_format(in->model + len - 11, 12, "%s", len == 11 ? "." : "");
  len = strlen(in->model);
  if (len > 1 && in->model[len - 1] == '/') in->model[len - 1] = '\0';
  return GS_OK;
}

/* Weights as the engine reads them: as the checkpoint stores them. --bits prices a storage of
 * its own, which an engine serves only from a checkpoint stored so (its quantization on
 * loading keeps the embedding and output tables at 16 bits): refused unless it is a catalogue
 * checkpoint's own 16 bits. A config given as text was counted at --bits already, so what it
 * stores is not known here, and --bits with it is refused too. */
static int weights_as_stored(const gs_setting *s, gs_error *err) {
  const gs_model_entry *e = s->model_entry; /* NULL for a config given as text */
  gs_model stored;
  gs_error ignored;
  if (!s->bits) return GS_OK;
  if (s->bits == 16 && e && gs_builtin_model(e->key, 0, &stored, &ignored) == GS_OK && stored.stored_bytes == 2 * stored.params)
    return GS_OK;
  return gs_fail(err, GS_ERR_UNSUPPORTED, "emit",
                 "--bits %llu: an engine serves the weights as the checkpoint stores them (its quantization on loading "
                 "keeps some tables at 16 bits), so leave --bits out to price them so, or give a checkpoint stored at %llu bits",
                 (unsigned long long)s->bits, (unsigned long long)s->bits);
}

/* The checks every engine shares: the count, memory, the cache, the heads and the weights. */
static int launch_common(launch_input *in, gs_error *err) {
  const gs_setting *s = in->s;
  gs_priced priced;
  char a[GS_FIGURE_CAP], b[GS_FIGURE_CAP];
  int rc;
  if ((rc = gs_launch_sizes_of(s, in->n, &in->z, err)) != GS_OK) return rc;
  if ((rc = gs_price(s, in->n, &priced, err)) != GS_OK) return rc;
  if (!priced.cost.fits)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "%llu GPU%s not fit the model (%s GiB a GPU, %s GiB usable): an engine would not start",
                   (unsigned long long)in->n, in->n == 1 ? " does" : "s do", gs_fixed(a, sizeof a, (double)priced.cost.memory.total / (double)GS_GIB, 2),
                   gs_fixed(b, sizeof b, (double)priced.cost.usable_bytes / (double)GS_GIB, 2));
  if (!s->plan.cache_per_chat && in->z.chats > 1)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit",
                   "the figures hold one chat's cache for %llu chats, and an engine keeps a cache for each: add --cache-per-chat",
                   (unsigned long long)in->z.chats);
  if (in->z.replicas > 1 && s->plan.per_server && in->z.replicas * in->n > s->plan.per_server)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit",
                   "%llu replicas of %llu GPUs take more than a server of %llu: each server starts its own, which one command does not say",
                   (unsigned long long)in->z.replicas, (unsigned long long)in->n, (unsigned long long)s->plan.per_server);
  if (s->model.heads % in->z.tp != 0)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "tensor parallel %llu: the engines cut the %llu attention heads evenly, and they do not divide",
                   (unsigned long long)in->z.tp, (unsigned long long)s->model.heads);
  if ((rc = weights_as_stored(s, err)) != GS_OK) return rc;
  if (s->plan.cache_bits != 16 && s->plan.cache_bits != 8)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "a cache at %llu bits: the engines keep it at 16 bits (auto) or in FP8, so give --cache-bits 16 or 8",
                   (unsigned long long)s->plan.cache_bits);
  if (!share_text(s->gpu.usable, in->share, sizeof in->share))
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "the memory share is not a decimal of 9 places or fewer; give --usable as one");
  return served_model(s, in, err);
}

/* A layout the engine has no flag for, named: the check and its words. */
static int no_flag(int cannot, gs_error *err, const char *engine, const char *what) {
  return cannot ? gs_fail(err, GS_ERR_UNSUPPORTED, "emit", "%s has no flag for %s", engine, what) : GS_OK;
}

/* The comment line saying what one copy is in engine terms. */
static void put_layout(launch_writer *w, const launch_input *in) {
  const gs_launch_sizes *z = &in->z;
  put(w, "# one copy on %llu GPU%s", (unsigned long long)in->n, in->n == 1 ? "" : "s");
  if (z->servers > 1) put(w, " in %llu servers", (unsigned long long)z->servers);
  put(w, ": tensor parallel %llu, pipeline parallel %llu", (unsigned long long)z->tp, (unsigned long long)z->pp);
  if (z->attention_dp > 1)
    put(w, ", expert parallel %llu with attention data-parallel %llu", (unsigned long long)z->ep, (unsigned long long)z->attention_dp);
  else if (z->ep) put(w, ", each expert cut as every other weight");
  if (z->replicas > 1) put(w, "; %llu data-parallel replicas of it", (unsigned long long)z->replicas);
  put(w, "; a cache of %llu tokens a chat at %llu bits\n", (unsigned long long)in->s->plan.chat_tokens,
      (unsigned long long)in->s->plan.cache_bits);
}

/* vLLM's `vllm serve`. Flags as vllm/engine/arg_utils.py (EngineArgs.add_cli_args) spells
 * them at vllm-project/vllm@99d7eb5d6a51 (the v0.11 line: its deprecations name v0.12.0 for
 * removal); tests/c/engine_flags/vllm.txt. Data parallel: docs/serving/data_parallel_deployment.md
 * (the same tree): each DP rank is an engine of its own with TP workers, and a mixture's
 * experts form one group over DP x TP (with --enable-expert-parallel, EP = DP x TP), so
 * replicas of a mixture are not independent copies there. More than one server: a Ray cluster
 * (--distributed-executor-backend ray), started on every server before vllm serve. Its one
 * scheduler caps every running request at --max-num-seqs and puts those not in flight in the
 * next batch, with no cap a batch: several batches of --words chats in flight through the
 * pipeline have no flag there. */
static int launch_vllm(launch_writer *w, const launch_input *in, gs_error *err) {
  const gs_launch_sizes *z = &in->z;
  const gs_setting *s = in->s;
  int spread = z->attention_dp > 1, rc;
  if ((rc = no_flag(!spread && z->ep && z->replicas > 1, err, "vLLM",
                    "independent replicas of a mixture of experts (--data-parallel-size joins their experts in one group)")) != GS_OK ||
      (rc = no_flag(spread && z->replicas > 1, err, "vLLM", "replicas of spread experts (expert parallel spans every data-parallel rank)")) != GS_OK ||
      (rc = no_flag(spread && z->servers > 1, err, "vLLM", "spread experts across servers in one command (each server starts its own ranks)")) != GS_OK ||
      (rc = no_flag(z->servers > 1 && z->replicas > 1, err, "vLLM", "replicas of a layout that spans servers in one command")) != GS_OK ||
      (rc = no_flag(z->batches > 1, err, "vLLM", "batches of --words chats kept in flight apart (a batch takes every chat not in flight)")) != GS_OK)
    return rc;
  put(w, "# vLLM: vllm serve, flags of vllm-project/vllm@99d7eb5 (v0.11), vllm/engine/arg_utils.py\n");
  put_layout(w, in);
  if (z->servers > 1)
    put(w, "# start Ray on each of the %llu servers first (ray start); run this on the head node\n", (unsigned long long)z->servers);
  put(w, "# --max-num-seqs: the chats each engine keeps running, as the figures priced them\n");
  put(w, "vllm serve ");
  put_word(w, in->model);
  put(w, " --tensor-parallel-size %llu --pipeline-parallel-size %llu", (unsigned long long)z->tp, (unsigned long long)z->pp);
  if (spread) put(w, " --data-parallel-size %llu --enable-expert-parallel", (unsigned long long)z->attention_dp);
  else if (z->replicas > 1) put(w, " --data-parallel-size %llu", (unsigned long long)z->replicas);
  if (z->servers > 1) put(w, " --distributed-executor-backend ray");
  put(w, " --kv-cache-dtype %s --gpu-memory-utilization %s --max-model-len %llu --max-num-seqs %llu\n",
      s->plan.cache_bits == 8 ? "fp8_e4m3" : "auto", in->share, (unsigned long long)s->plan.chat_tokens,
      (unsigned long long)z->chats);
  return GS_OK;
}

/* SGLang's launcher. Flags as docs/advanced_features/server_arguments.md lists them at
 * sgl-project/sglang@b36e8e198b71 (its tables name python/sglang/srt/server_args.py);
 * tests/c/engine_flags/sglang.txt. Data parallel without attention DP starts --dp-size
 * copies of --tp-size GPUs each ("--dp 2 --tp 2 uses 4 GPUs in total"); with
 * --enable-dp-attention the DP size equals the TP size and the experts take --ep-size, and
 * --max-running-requests is shared over the attention ranks. Pipeline parallel takes
 * --pp-max-micro-batch-size, the chats of one batch in flight. More than one server: --nnodes,
 * --node-rank and --dist-init-addr, the same command on each server (the page's example). */
static int launch_sglang(launch_writer *w, const launch_input *in, gs_error *err) {
  const gs_launch_sizes *z = &in->z;
  const gs_setting *s = in->s;
  int spread = z->attention_dp > 1, rc;
  if ((rc = no_flag(spread && z->replicas > 1, err, "SGLang", "replicas of spread experts (--dp-size is the attention ranks then)")) != GS_OK ||
      (rc = no_flag(z->servers > 1 && z->replicas > 1, err, "SGLang", "replicas of a layout that spans servers in one command")) != GS_OK)
    return rc;
  put(w, "# SGLang: python -m sglang.launch_server, flags of sgl-project/sglang@b36e8e1, docs/advanced_features/server_arguments.md\n");
  put_layout(w, in);
  if (z->servers > 1)
    put(w, "# run on each of the %llu servers with NODE_RANK 0 to %llu, HEAD_ADDR the first server's host:port\n",
        (unsigned long long)z->servers, (unsigned long long)(z->servers - 1));
  put(w, "# --mem-fraction-static: the share of memory the figures let the server use (SGLang counts the\n"
         "# weights and the cache pool in it); --max-running-requests: the chats %s\n",
      spread ? "of every attention rank together" : "each copy keeps running");
  put(w, "python -m sglang.launch_server --model-path ");
  put_word(w, in->model);
  if (spread)
    put(w, " --tp-size %llu --dp-size %llu --enable-dp-attention --ep-size %llu", (unsigned long long)in->n,
        (unsigned long long)z->attention_dp, (unsigned long long)z->ep);
  else put(w, " --tp-size %llu --pp-size %llu", (unsigned long long)z->tp, (unsigned long long)z->pp);
  if (z->pp > 1) put(w, " --pp-max-micro-batch-size %llu", (unsigned long long)s->plan.words);
  if (!spread && z->replicas > 1) put(w, " --dp-size %llu", (unsigned long long)z->replicas);
  if (z->servers > 1)
    put(w, " --nnodes %llu --node-rank \"$NODE_RANK\" --dist-init-addr \"$HEAD_ADDR\"", (unsigned long long)z->servers);
  put(w, " --kv-cache-dtype %s --mem-fraction-static %s --context-length %llu --max-running-requests %llu\n",
      s->plan.cache_bits == 8 ? "fp8_e4m3" : "auto", in->share, (unsigned long long)s->plan.chat_tokens,
      (unsigned long long)(spread ? z->chats * z->attention_dp : z->chats));
  return GS_OK;
}

/* TensorRT-LLM's trtllm-serve (its PyTorch backend). Flags as tensorrt_llm/commands/serve.py
 * defines them (click options) at NVIDIA/TensorRT-LLM@4c05a74891e4; tests/c/engine_flags/trtllm.txt.
 * The cache's type and attention data parallel have no flag there: they are LLM API options
 * (enable_attention_dp in tensorrt_llm/llmapi/llm_args.py at fcd3f3168280; KvCacheConfig's
 * dtype, "auto" or a type such as "fp8", in the LLM API reference of version 1.3.0rc27),
 * which serve.py reads from the YAML file --extra_llm_api_options names; the command writes
 * that file first. Its memory flag, --kv_cache_free_gpu_memory_fraction, is a share of the
 * memory left after the weights and buffers, a figure gpusplit does not price, so it is left
 * at the engine's default. It has no data-parallel replicas, and starts on several servers
 * under MPI, which a single command does not say. --max_batch_size is one micro-batch's, and
 * under pipeline parallel it keeps one in each stage (PyTorchModelEngine.get_max_num_sequences:
 * pp_size x batch_size), so the figures must keep as many batches in flight as stages. */
static int launch_trtllm(launch_writer *w, const launch_input *in, gs_error *err) {
  const gs_launch_sizes *z = &in->z;
  const gs_setting *s = in->s;
  int spread = z->attention_dp > 1, rc;
  if ((rc = no_flag(z->replicas > 1, err, "trtllm-serve", "data-parallel replicas (start one server a copy)")) != GS_OK ||
      (rc = no_flag(z->servers > 1, err, "trtllm-serve", "a layout over several servers (it starts under MPI there)")) != GS_OK)
    return rc;
  if (z->pp > 1 && z->batches != z->pp)
    return gs_fail(err, GS_ERR_UNSUPPORTED, "emit",
                   "trtllm-serve keeps a batch in each of its %llu pipeline stages, and the figures keep %llu in flight: give --in-flight %llu",
                   (unsigned long long)z->pp, (unsigned long long)z->batches, (unsigned long long)z->pp);
  put(w, "# TensorRT-LLM: trtllm-serve, flags of NVIDIA/TensorRT-LLM@4c05a74, tensorrt_llm/commands/serve.py;\n"
         "# the cache's type and attention data-parallel as LLM API options (llm_args.py) in the YAML file\n");
  put_layout(w, in);
  put(w, "# no memory share: its --kv_cache_free_gpu_memory_fraction is of the memory left after the weights\n");
  put(w, "cat > gpusplit-trtllm.yaml <<'EOF'\nkv_cache_config:\n  dtype: %s\n", s->plan.cache_bits == 8 ? "fp8" : "auto");
  if (spread) put(w, "enable_attention_dp: true\n");
  put(w, "EOF\ntrtllm-serve ");
  put_word(w, in->model);
  put(w, " --tp_size %llu --pp_size %llu", (unsigned long long)(spread ? in->n : z->tp), (unsigned long long)z->pp);
  if (z->ep) put(w, " --ep_size %llu", (unsigned long long)z->ep);
  put(w, " --max_batch_size %llu --max_seq_len %llu --extra_llm_api_options gpusplit-trtllm.yaml\n",
      (unsigned long long)(spread ? z->chats : s->plan.words), (unsigned long long)s->plan.chat_tokens);
  return GS_OK;
}

int gs_launch(const gs_setting *s, uint64_t n, int engine, char *buf, size_t cap, gs_error *err) {
  launch_input in; /* 4 KiB (the model's name), on the stack: the library keeps no state */
  launch_writer w;
  int rc;
  if (cap) buf[0] = '\0';
  if (!gs_engine_name(engine) || engine >= GS_LAUNCH_ENGINES) return gs_fail(err, GS_ERR_RANGE, "emit", "must be vllm, sglang or trtllm");
  memset(&in, 0, sizeof in);
  in.s = s;
  in.n = n;
  if ((rc = launch_common(&in, err)) != GS_OK) return rc;
  w.buf = buf;
  w.cap = cap;
  w.at = 0;
  w.cut = cap == 0;
  rc = engine == GS_ENGINE_VLLM ? launch_vllm(&w, &in, err) : engine == GS_ENGINE_SGLANG ? launch_sglang(&w, &in, err) : launch_trtllm(&w, &in, err);
  if (rc == GS_OK && w.cut) {
    if (cap) buf[0] = '\0';
    return gs_fail(err, GS_ERR_TOO_LONG, "emit", "the command does not fit in %zu bytes", cap);
  }
  if (rc != GS_OK && cap) buf[0] = '\0';
  return rc;
}
