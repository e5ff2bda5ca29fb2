/* The lesson's four figures as small SVGs: the lesson's captions, with every figure on them
 * priced by gs_cost, written by gs_view_of and gs_fixed (format.c), and placed by the
 * same sums. Colours are currentColor through the widget's custom properties (--gs-fg,
 * --gs-muted, --gs-line, --gs-read, --gs-wait, --gs-font; web/src/widget.css), so a page
 * that inlines a figure colours it as it colours the widget; there is no script. Each has
 * a <title> and a <desc> that says in words what it draws, for screen readers.
 * The text goes into the caller's buffer; one that runs out is an error, never a cut SVG. */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

static const char *const NAMES[GS_FIGURE_COUNT] = {"weights-split", "time-per-word", "stops-helping", "slices-vs-groups"};

/* Figures 1 and 4 split the model four ways; Figure 2 draws 2, 4, 8 and 16 GPUs (the lesson). */
static const uint64_t SPLIT_WAYS = 4;
static const uint64_t TIME_COUNTS[] = {2, 4, 8, 16};
#define TIME_COUNT_N (sizeof TIME_COUNTS / sizeof TIME_COUNTS[0])

enum { RING = 24, SLOT = 48 };

typedef struct {
  char *buf;
  size_t cap, len;
  int full;           /* a piece did not fit: the figure is refused */
  const char *name;   /* the figure's name, the prefix of its ids */
  char ring[RING][SLOT];
  unsigned next;
  char piece[2048]; /* one put's text, longer than any piece a figure writes */
} svg;

/* Appends formatted text (gs_vformat: %s, %d, %u, %llu, %zu) through a scratch buffer, so
 * that a piece cut by the scratch's end is known (it fills it) and the piece is appended
 * only when it and the closing NUL fit the caller's buffer. */
static void put(svg *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(svg *o, const char *fmt, ...) {
  va_list ap;
  size_t n;
  if (o->full) return;
  va_start(ap, fmt);
  n = gs_vformat(o->piece, sizeof o->piece, fmt, ap);
  va_end(ap);
  if (n + 1 >= sizeof o->piece || n + 1 > o->cap - o->len) {
    o->full = 1;
    return;
  }
  memcpy(o->buf + o->len, o->piece, n + 1);
  o->len += n;
}

static char *slot(svg *o) { return o->ring[o->next++ % RING]; }
/* A figure to `places` decimals, rounded as every figure of the library is (format.c). */
static const char *fx(svg *o, double x, int places) { return gs_fixed(slot(o), SLOT, x, places); }
static const char *gib(svg *o, uint64_t bytes) { return fx(o, (double)bytes / (double)GS_GIB, 2); }
/* A length or place on the drawing, in px to one decimal. */
static const char *px(svg *o, double x) { return fx(o, x, 1); }

/* Text for an XML text node or attribute: & < > " written as references. */
static const char *esc(svg *o, const char *s) {
  char *out = slot(o);
  size_t at = 0;
  for (; *s && at + 7 < SLOT; s++) {
    const char *ref = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
    if (ref) {
      memcpy(out + at, ref, strlen(ref));
      at += strlen(ref);
    } else out[at++] = *s;
  }
  out[at] = '\0';
  return out;
}

static gs_plan plan_of(uint64_t gpus, int split) {
  gs_plan p;
  memset(&p, 0, sizeof p);
  p.gpus = gpus;
  p.split = split;
  p.words = 1;
  return p;
}

/* The opening: size, and the title left open for the figure's caption. */
static void open_svg(svg *o, int width, int height) {
  put(o,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
      "aria-labelledby=\"gsf-%s-title gsf-%s-desc\">\n<title id=\"gsf-%s-title\">",
      width, height, width, height, o->name, o->name, o->name);
}
/* Closes the title and opens the desc, for the figure's words. */
static void open_desc(svg *o) { put(o, "</title>\n<desc id=\"gsf-%s-desc\">", o->name); }

/* Closes the desc; the style (classes prefixed gsf-, since a page that inlines the SVG
 * shares them), and the waiting's hatch. Inlined, a figure takes the page's custom
 * properties (web/src/widget.css's --gs-*), or its text colour. svg:root matches only a
 * figure that is a document of its own (opened alone, or an <img>): it keeps the widget's
 * light colours on white whatever the reader's scheme, since an <img> cannot know the
 * page's background, and white text on a white page vanished (issue 31). */
static void close_desc(svg *o) {
  put(o, "</desc>\n<style>\n"
         ".gsf-text{fill:var(--gs-fg,currentColor);font:13px var(--gs-font,system-ui,sans-serif)}\n"
         ".gsf-muted{fill:var(--gs-muted,currentColor)}\n"
         ".gsf-read{fill:var(--gs-read,currentColor)}\n"
         ".gsf-wait{stroke:var(--gs-wait,currentColor)}\n"
         ".gsf-hatch{stroke:var(--gs-wait,currentColor);stroke-width:2}\n"
         ".gsf-rule{stroke:var(--gs-fg,currentColor);stroke-dasharray:4 3}\n"
         ".gsf-axis{stroke:var(--gs-line,currentColor)}\n"
         "svg:root{color:#1f2328;background:#ffffff;--gs-fg:#1f2328;--gs-muted:#57606a;--gs-line:#d0d7de;"
         "--gs-read:#00785a;--gs-wait:#8a5a00}\n"
         "</style>\n<defs><pattern id=\"gsf-%s-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><line class=\"gsf-hatch\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\"/></pattern></defs>\n",
      o->name);
}

static void text(svg *o, double x, double y, const char *anchor, const char *extra_class, const char *s) {
  put(o, "<text class=\"gsf-text%s%s\" x=\"%s\" y=\"%s\"%s%s%s>%s</text>\n", extra_class[0] ? " " : "", extra_class, px(o, x),
      px(o, y), anchor[0] ? " text-anchor=\"" : "", anchor, anchor[0] ? "\"" : "", s);
}
static void read_rect(svg *o, double x, double y, double w, double h) {
  put(o, "<rect class=\"gsf-read\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", px(o, x), px(o, y), px(o, w), px(o, h));
}
static void wait_rect(svg *o, double x, double y, double w, double h) {
  put(o, "<rect class=\"gsf-wait\" fill=\"url(#gsf-%s-hatch)\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", o->name, px(o, x),
      px(o, y), px(o, w), px(o, h));
}
static void legend(svg *o, double x, double y, const char *solid, const char *hatched) {
  read_rect(o, x, y - 10, 12, 12);
  text(o, x + 18, y, "", "", solid);
  wait_rect(o, x + 120, y - 10, 12, 12);
  text(o, x + 138, y, "", "", hatched);
}

/* Figure 1: the large model's weights, one GPU's usable memory as a line, then each of
 * four GPUs' share. */
static int weights_split(svg *o, const gs_figure_input *in, gs_error *err) {
  const double x0 = 170, span = 340, row = 26;
  gs_plan p = plan_of(SPLIT_WAYS, GS_SLICES);
  gs_view v;
  gs_cost_result c;
  uint64_t whole = in->large->stored_bytes, usable = gs_usable_bytes(in->gpu), i;
  double top, line;
  int rc;
  if ((rc = gs_cost(in->large, in->gpu, in->fast, &p, &c, err)) != GS_OK) return rc;
  gs_view_of(&c, &v);
  top = (double)(whole > usable ? whole : usable);
  line = x0 + span * (double)usable / top;
  open_svg(o, 640, (int)(60 + row * (double)(SPLIT_WAYS + 1) + 30));
  put(o, "Figure 1. The %s model's weights against one GPU's usable memory, then split %llu ways", esc(o, in->large_name),
      (unsigned long long)SPLIT_WAYS);
  open_desc(o);
  put(o, "The %s model's weights take %s GiB, more than the %s one GPU can use. Split %llu ways, each GPU holds %s of weights.",
      esc(o, in->large_name), gib(o, whole), v.usable, (unsigned long long)SPLIT_WAYS, v.weights);
  close_desc(o);
  put(o, "<text class=\"gsf-text gsf-muted\" x=\"%s\" y=\"18\" text-anchor=\"middle\">one GPU can use %s</text>\n", px(o, line),
      v.usable);
  put(o, "<line class=\"gsf-rule\" x1=\"%s\" y1=\"26\" x2=\"%s\" y2=\"%s\"/>\n", px(o, line), px(o, line),
      px(o, 40 + row * (double)(SPLIT_WAYS + 1)));
  put(o, "<text class=\"gsf-text\" x=\"10\" y=\"48\">%s model, whole</text>\n", esc(o, in->large_name));
  read_rect(o, x0, 35, span * (double)whole / top, 18);
  put(o, "<text class=\"gsf-text\" x=\"%s\" y=\"48\">%s GiB</text>\n", px(o, x0 + span * (double)whole / top + 6), gib(o, whole));
  for (i = 0; i < SPLIT_WAYS; i++) {
    double y = 48 + row * (double)(i + 1);
    put(o, "<text class=\"gsf-text\" x=\"10\" y=\"%s\">GPU %llu of %llu</text>\n", px(o, y), (unsigned long long)(i + 1),
        (unsigned long long)SPLIT_WAYS);
    read_rect(o, x0, y - 13, span * (double)c.memory.weights / top, 18);
    put(o, "<text class=\"gsf-text\" x=\"%s\" y=\"%s\">%s</text>\n", px(o, x0 + span * (double)c.memory.weights / top + 6), px(o, y),
        v.weights);
  }
  put(o, "<text class=\"gsf-text gsf-muted\" x=\"10\" y=\"%s\">Weights only: a chat's cache and working space come on top.</text>\n",
      px(o, 48 + row * (double)(SPLIT_WAYS + 1) + 10));
  return GS_OK;
}

/* Figure 2: one word from the large model on the fast link at 2, 4, 8 and 16 GPUs, reading
 * then waiting, to one scale. */
static int time_per_word(svg *o, const gs_figure_input *in, gs_error *err) {
  const double x0 = 90, span = 340, row = 30;
  gs_cost_result c[TIME_COUNT_N];
  gs_view v[TIME_COUNT_N];
  double top = 0;
  size_t i;
  int rc;
  for (i = 0; i < TIME_COUNT_N; i++) {
    gs_plan p = plan_of(TIME_COUNTS[i], GS_SLICES);
    if ((rc = gs_cost(in->large, in->gpu, in->fast, &p, &c[i], err)) != GS_OK) return rc;
    gs_view_of(&c[i], &v[i]);
    if (!c[i].fits) return gs_fail(err, GS_ERR_RANGE, "figure", "the model does not fit %llu GPUs", (unsigned long long)TIME_COUNTS[i]);
    if (c[i].time.total > top) top = c[i].time.total;
  }
  open_svg(o, 640, (int)(30 + row * (double)TIME_COUNT_N + 40));
  put(o, "Figure 2. One word from the %s model on the fast link: reading and waiting", esc(o, in->large_name));
  open_desc(o);
  put(o, "One word from the %s model on the fast link, each GPU reading its share and then waiting on the swaps:", esc(o, in->large_name));
  for (i = 0; i < TIME_COUNT_N; i++)
    put(o, " %s on %llu GPUs%s", v[i].time, (unsigned long long)TIME_COUNTS[i], i + 1 < TIME_COUNT_N ? "," : ".");
  put(o, " Waiting takes, in turn: ");
  for (i = 0; i < TIME_COUNT_N; i++) put(o, "%s%s", v[i].waiting, i + 1 < TIME_COUNT_N ? ", " : ".");
  put(o, " Reading halves with each doubling; waiting does not.");
  close_desc(o);
  for (i = 0; i < TIME_COUNT_N; i++) {
    double y = 30 + row * (double)i, read = span * c[i].time.read / top, wait = span * c[i].time.transfer / top;
    put(o, "<text class=\"gsf-text\" x=\"10\" y=\"%s\">%llu GPUs</text>\n", px(o, y + 13), (unsigned long long)TIME_COUNTS[i]);
    read_rect(o, x0, y, read, 18);
    wait_rect(o, x0 + read, y, wait, 18);
    put(o, "<text class=\"gsf-text\" x=\"%s\" y=\"%s\">%s, %s waiting</text>\n", px(o, x0 + read + wait + 6), px(o, y + 13), v[i].time,
        v[i].waiting);
  }
  legend(o, x0, 30 + row * (double)TIME_COUNT_N + 20, "reading", "waiting");
  return GS_OK;
}

/* The GPU count of the most words a second among GS_COUNTS on one link. */
static size_t peak(const double *words_per_s) {
  size_t i, best = 0;
  for (i = 1; i < GS_COUNT_COUNT; i++)
    if (words_per_s[i] > words_per_s[best]) best = i;
  return best;
}

/* Figure 3: the small model, one user, words a second at each count on both links. */
static int stops_helping(svg *o, const gs_figure_input *in, gs_error *err) {
  const double base = 230, height = 170, x0 = 60, group = 112, bar = 34;
  double wps[2][16], top = 0;
  const gs_link *links[2];
  size_t i, k, last = GS_COUNT_COUNT - 1, pf, ps;
  int rc;
  links[0] = in->fast;
  links[1] = in->slow;
  if (GS_COUNT_COUNT < 2 || GS_COUNT_COUNT > 16) return gs_fail(err, GS_ERR_RANGE, "figure", "Figure 3 draws 2 to 16 counts");
  for (k = 0; k < 2; k++)
    for (i = 0; i < GS_COUNT_COUNT; i++) {
      gs_plan p = plan_of(GS_COUNTS[i], GS_SLICES);
      gs_cost_result c;
      if ((rc = gs_cost(in->small, in->gpu, links[k], &p, &c, err)) != GS_OK) return rc;
      if (!c.fits) return gs_fail(err, GS_ERR_RANGE, "figure", "the model does not fit %llu GPUs", (unsigned long long)GS_COUNTS[i]);
      wps[k][i] = c.time.words_per_s;
      if (wps[k][i] > top) top = wps[k][i];
    }
  pf = peak(wps[0]);
  ps = peak(wps[1]);
  open_svg(o, 640, 290);
  put(o, "Figure 3. The %s model, one user: words a second by GPU count on both links", esc(o, in->small_name));
  open_desc(o);
  put(o, "The %s model, one user, words a second at", esc(o, in->small_name));
  for (i = 0; i < GS_COUNT_COUNT; i++)
    put(o, "%s %llu", i == 0 ? "" : i + 1 < GS_COUNT_COUNT ? "," : " and", (unsigned long long)GS_COUNTS[i]);
  put(o, " GPUs: on the fast link");
  for (i = 0; i < GS_COUNT_COUNT; i++) put(o, " %s%s", fx(o, wps[0][i], 0), i + 1 < GS_COUNT_COUNT ? "," : ";");
  put(o, " on the slow link");
  for (i = 0; i < GS_COUNT_COUNT; i++) put(o, " %s%s", fx(o, wps[1][i], 0), i + 1 < GS_COUNT_COUNT ? "," : ".");
  if (pf == ps) put(o, " Speed peaks at %llu GPUs on both links", (unsigned long long)GS_COUNTS[pf]);
  else put(o, " Speed peaks at %llu GPUs on the fast link and %llu on the slow one", (unsigned long long)GS_COUNTS[pf],
           (unsigned long long)GS_COUNTS[ps]);
  put(o, ": from %llu to %llu GPUs the fast link goes from %s to %s and the slow link %s to %s words a second.",
      (unsigned long long)GS_COUNTS[last - 1], (unsigned long long)GS_COUNTS[last], fx(o, wps[0][last - 1], 0), fx(o, wps[0][last], 0),
      fx(o, wps[1][last - 1], 0), fx(o, wps[1][last], 0));
  close_desc(o);
  text(o, 10, 20, "", "gsf-muted", "words a second, one user");
  put(o, "<line class=\"gsf-axis\" x1=\"%s\" y1=\"%s\" x2=\"630\" y2=\"%s\"/>\n", px(o, x0 - 10), px(o, base), px(o, base));
  for (i = 0; i < GS_COUNT_COUNT; i++) {
    double gx = x0 + group * (double)i;
    for (k = 0; k < 2; k++) {
      double h = height * wps[k][i] / top, x = gx + (bar + 4) * (double)k;
      if (k == 0) read_rect(o, x, base - h, bar, h);
      else wait_rect(o, x, base - h, bar, h);
      put(o, "<text class=\"gsf-text\" x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n", px(o, x + bar / 2), px(o, base - h - 5),
          fx(o, wps[k][i], 0));
    }
    put(o, "<text class=\"gsf-text\" x=\"%s\" y=\"%s\" text-anchor=\"middle\">%llu GPU%s</text>\n", px(o, gx + bar + 2), px(o, base + 18),
        (unsigned long long)GS_COUNTS[i], GS_COUNTS[i] == 1 ? "" : "s");
  }
  legend(o, x0, base + 48, "fast link", "slow link");
  return GS_OK;
}

/* Figure 4: one word from the large model on four GPUs, each GPU a row from the step's
 * start, slices above and groups below, to one time scale (gs_timeline_of's rows: reading and waiting; the repeat and the words
 * of each row are not drawn). */
static int slices_vs_groups(svg *o, const gs_figure_input *in, gs_error *err) {
  const double x0 = 70, span = 440, row = 20;
  const int splits[2] = {GS_SLICES, GS_GROUPS};
  static gs_setting s; /* large (its texts): kept off the modules' stack */
  gs_timeline_row rows[2][8];
  gs_priced pr;
  gs_cost_result c[2];
  gs_view v[2];
  double top = 0, y = 20;
  size_t k;
  uint64_t i;
  int rc;
  if (SPLIT_WAYS > 8) return gs_fail(err, GS_ERR_RANGE, "figure", "Figure 4 draws at most 8 GPUs");
  for (k = 0; k < 2; k++) {
    gs_plan p = plan_of(SPLIT_WAYS, splits[k]);
    gs_setting_of(in->large, in->gpu, in->fast, &p, &s);
    if ((rc = gs_price(&s, SPLIT_WAYS, &pr, err)) != GS_OK) return rc;
    if ((rc = gs_timeline_of(&pr, rows[k], 8, err)) != GS_OK) return rc;
    c[k] = pr.cost;
    v[k] = pr.view;
    if (!c[k].fits) return gs_fail(err, GS_ERR_RANGE, "figure", "the model does not fit %llu GPUs", (unsigned long long)SPLIT_WAYS);
    if (c[k].time.total > top) top = c[k].time.total;
  }
  open_svg(o, 640, (int)(2 * (30 + row * (double)SPLIT_WAYS) + 50));
  put(o, "Figure 4. One word from the %s model on %llu GPUs. Slices read together; groups read in turn", esc(o, in->large_name),
      (unsigned long long)SPLIT_WAYS);
  open_desc(o);
  put(o, "One word from the %s model on %llu GPUs and the fast link. Slices: every GPU reads its share at the same time, %s, "
         "then they swap, %s a word. Groups: each GPU reads its %s in turn and hands on, %s a word, and %llu GPUs in %llu "
         "stand idle at any moment.",
      esc(o, in->large_name), (unsigned long long)SPLIT_WAYS, v[0].read, v[0].time, v[0].read, v[1].time,
      (unsigned long long)(SPLIT_WAYS - 1), (unsigned long long)SPLIT_WAYS);
  close_desc(o);
  for (k = 0; k < 2; k++) {
    double whole = span * c[k].time.total / top;
    if (k == 0) put(o, "<text class=\"gsf-text\" x=\"10\" y=\"%s\">Slices: all read their %s at once, then swap: %s</text>\n", px(o, y), v[0].read, v[0].time);
    else put(o, "<text class=\"gsf-text\" x=\"10\" y=\"%s\">Groups: each reads its %s in turn, then hands on: %s</text>\n", px(o, y), v[0].read, v[1].time);
    y += 10;
    for (i = 0; i < SPLIT_WAYS; i++) {
      const gs_timeline_row *r = &rows[k][i];
      double at = x0 + whole * r->idle_before / 100, read = whole * r->read / 100, wait = whole * r->wait / 100;
      put(o, "<text class=\"gsf-text gsf-muted\" x=\"10\" y=\"%s\">GPU %llu</text>\n", px(o, y + 12), (unsigned long long)(i + 1));
      put(o, "<line class=\"gsf-axis\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", px(o, x0), px(o, y + 8), px(o, x0 + whole), px(o, y + 8));
      read_rect(o, at, y, read, 15);
      if (wait > 0) wait_rect(o, at + read, y, wait, 15);
      y += row;
    }
    y += 20;
  }
  legend(o, x0, y, "reading", "waiting");
  return GS_OK;
}

const char *gs_figure_name(int kind) { return kind >= 0 && kind < GS_FIGURE_COUNT ? NAMES[kind] : NULL; }

int gs_figure_parse(const char *name) {
  int k;
  for (k = 0; k < GS_FIGURE_COUNT; k++)
    if (strcmp(name, NAMES[k]) == 0) return k;
  return -1;
}

int gs_figure(int kind, const gs_figure_input *in, char *buf, size_t cap, size_t *len, gs_error *err) {
  svg o;
  int rc;
  if (kind < 0 || kind >= GS_FIGURE_COUNT) return gs_fail(err, GS_ERR_UNKNOWN, "figure", "no such figure");
  if (cap == 0) return gs_fail(err, GS_ERR_TOO_LONG, "figure", "a buffer of no bytes holds no figure");
  memset(&o, 0, sizeof o);
  o.buf = buf;
  o.cap = cap;
  o.name = NAMES[kind];
  buf[0] = '\0';
  switch (kind) {
    case GS_FIGURE_WEIGHTS_SPLIT: rc = weights_split(&o, in, err); break;
    case GS_FIGURE_TIME_PER_WORD: rc = time_per_word(&o, in, err); break;
    case GS_FIGURE_STOPS_HELPING: rc = stops_helping(&o, in, err); break;
    default: rc = slices_vs_groups(&o, in, err); break;
  }
  put(&o, "</svg>\n");
  if (rc == GS_OK && o.full) rc = gs_fail(err, GS_ERR_TOO_LONG, "figure", "%s is longer than the %zu bytes given for it", NAMES[kind], cap);
  buf[rc == GS_OK ? o.len : 0] = '\0';
  if (len) *len = rc == GS_OK ? o.len : 0;
  return rc;
}
