/* The engine's search compiled: twixt/engine/search.py's PUCT loop with twixt/engine/board.py's place and
 * take_back, twixt/engine/evaluate.py's layered flood fills and twixt/engine/candidates.py's priors, in C.
 *
 * Why C: the search spends its time in thousands of small steps per node (flood-fill layers
 * on big-int bitboards, scoring candidate holes, walking the tree), each of which costs an
 * interpreted Python operation; here they are loops over a few machine words. The Python
 * modules stay the definition: every function below mirrors one of theirs (named in its
 * comment), in the same arithmetic order and with the same tie-breaks, so that both cores
 * choose the same move for the same position, seed and node count (tests/engine checks it).
 *
 * Python prepares the board's tables once per size and rule set (`tables`, see twixt/engine/core.py)
 * and the position per search (`search`); nothing here reads Python objects during a search,
 * so the search runs without the GIL, taking it back now and then to let signals through.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 48 x 48 holes in 64-bit words */
#define MAXW 36
#define NONE (-1)

typedef struct {
    uint64_t w[MAXW];
} BB;

/* ---- the tables of one board size and rule set ------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int cols, rows, n, nw, classic;
    BB all, border[2][2], placeable[2], steps[8], centre;
    int shifts[8];
    /* Black's flood fills run on the board transposed (hole (c, r) at c * rows + r), where
     * its borders are the first and last rows: a fill's frontier is then a band of a few
     * words, as Red's is on the board itself. Step k keeps its number there. */
    BB tall, tborder[2][2], tsteps[8];
    int tshifts[8];
    int32_t *tpos; /* per hole: its index on the transposed board, and back */
    int32_t *tinv;
    /* per hole: up to 8 (neighbour, link id) pairs and how many */
    int32_t *nb;
    int8_t *nb_count;
    /* per link id: lower end (-1: off the board), upper end, forward step, its opposite */
    int32_t *link_lo, *link_hi, *link_step, *link_back;
    /* per link id: up to 9 crossing link ids, -1 padded */
    int32_t *cross;
    /* per colour, the board seen as Red (patterns.frame): per hole and ring position the
     * neighbour and link id (-1: off the board), per hole and square position the
     * neighbour, the same for the outer square, then per hole its along and across */
    int32_t *frame;
} Tables;

/* patterns.py: one colour's frame in Tables.frame */
#define RING 8
#define SQUARE 8
#define FRAME_AROUND (2 * RING + 2 * SQUARE) /* the ints of a hole's neighbours */
#define FRAME_INTS(n) ((n) * (FRAME_AROUND + 2))

static void tables_dealloc(Tables *t)
{
    PyMem_Free(t->nb);
    PyMem_Free(t->nb_count);
    PyMem_Free(t->link_lo);
    PyMem_Free(t->cross);
    PyMem_Free(t->tpos);
    PyMem_Free(t->frame);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine._core.Tables",
    .tp_doc = "One board size's tables for the compiled search (made by engine._core.tables).",
    .tp_basicsize = sizeof(Tables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)tables_dealloc,
};

/* little-endian bytes of `count` bitboards of nw words each */
static void read_bitboards(const unsigned char *bytes, int nw, BB *out, int count)
{
    for (int b = 0; b < count; b++) {
        memset(&out[b], 0, sizeof(BB));
        for (int i = 0; i < nw; i++) {
            uint64_t word = 0;
            for (int j = 7; j >= 0; j--)
                word = (word << 8) | bytes[(size_t)(b * nw + i) * 8 + j];
            out[b].w[i] = word;
        }
    }
}

static int expect(Py_ssize_t got, Py_ssize_t want, const char *what)
{
    if (got != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, got, want);
        return -1;
    }
    return 0;
}

/* `in` with each hole h moved to map[h] */
static void moved(const BB *in, const int32_t *map, int nw, BB *out)
{
    memset(out->w, 0, (size_t)nw * 8);
    for (int i = 0; i < nw; i++)
        for (uint64_t w = in->w[i]; w; w &= w - 1) {
            int h = map[i * 64 + __builtin_ctzll(w)];
            out->w[h >> 6] |= (uint64_t)1 << (h & 63);
        }
}

/* the transposed board's tables (see Tables); -1 when out of memory */
static int transpose_tables(Tables *t)
{
    int n = t->n, cols = t->cols, rows = t->rows;
    t->tpos = PyMem_Malloc((size_t)n * 2 * sizeof(int32_t));
    if (t->tpos == NULL)
        return -1;
    t->tinv = t->tpos + n;
    for (int h = 0; h < n; h++) {
        t->tpos[h] = (h % cols) * rows + h / cols;
        t->tinv[t->tpos[h]] = h;
    }
    moved(&t->all, t->tpos, t->nw, &t->tall);
    for (int colour = 0; colour < 2; colour++)
        for (int side = 0; side < 2; side++)
            moved(&t->border[colour][side], t->tpos, t->nw, &t->tborder[colour][side]);
    for (int k = 0; k < 8; k++) {
        moved(&t->steps[k], t->tpos, t->nw, &t->tsteps[k]);
        /* the step (dc, dr) has the shift dr * cols + dc here, dc * rows + dr transposed */
        t->tshifts[k] = 0;
        for (int dr = -2; dr <= 2; dr++) {
            int dc = t->shifts[k] - dr * cols;
            if (dr && dc >= -2 && dc <= 2)
                t->tshifts[k] = dc * rows + dr;
        }
    }
    return 0;
}

/* every index in the tables within its range: the search trusts them */
static int tables_valid(const Tables *t)
{
    int n = t->n, links = 4 * n;
    for (int k = 0; k < 8; k++)
        if (t->shifts[k] == 0 || t->shifts[k] > 2 * 48 + 2 || t->shifts[k] < -(2 * 48 + 2)
            || t->tshifts[k] == 0)
            return 0;
    for (int h = 0; h < n; h++)
        for (int j = 0; j < t->nb_count[h]; j++) {
            int neighbour = t->nb[h * 16 + 2 * j], lid = t->nb[h * 16 + 2 * j + 1];
            if (neighbour >= n || lid < 0 || lid >= links || t->link_lo[lid] < 0)
                return 0;
        }
    for (int colour = 0; colour < 2; colour++) {
        const int32_t *f = t->frame + colour * FRAME_INTS(n);
        for (int j = 0; j < n * RING; j++)
            if (f[j] >= n || (f[j] >= 0 && (f[n * RING + j] < 0 || f[n * RING + j] >= links)))
                return 0;
        for (int j = 2 * n * RING; j < n * FRAME_AROUND; j++)
            if (f[j] >= n)
                return 0;
        const int32_t *along = f + n * FRAME_AROUND, *across = along + n;
        for (int h = 0; h < n; h++)
            if (along[h] < 0 || along[h] >= 48 || across[h] < 0 || across[h] >= 48)
                return 0;
    }
    for (int lid = 0; lid < links; lid++) {
        if (t->link_lo[lid] < 0)
            continue;
        if (t->link_lo[lid] >= n || t->link_hi[lid] < 0 || t->link_hi[lid] >= n
            || t->link_step[lid] < 0 || t->link_step[lid] > 7 || t->link_back[lid] < 0
            || t->link_back[lid] > 7)
            return 0;
        for (int j = 0; j < 9; j++) {
            int other = t->cross[lid * 9 + j];
            if (other >= links || (other >= 0 && t->link_lo[other] < 0))
                return 0;
        }
    }
    return 1;
}

static PyObject *core_tables(PyObject *self, PyObject *args)
{
    (void)self;
    int cols, rows, classic;
    const unsigned char *masks, *shifts, *nb, *ends, *cross, *frames;
    Py_ssize_t masks_len, shifts_len, nb_len, ends_len, cross_len, frames_len;
    if (!PyArg_ParseTuple(args, "iipy#y#y#y#y#y#", &cols, &rows, &classic, &masks, &masks_len,
                          &shifts, &shifts_len, &nb, &nb_len, &ends, &ends_len, &cross,
                          &cross_len, &frames, &frames_len))
        return NULL;
    if (cols < 5 || rows < 5 || cols > 48 || rows > 48) {
        PyErr_SetString(PyExc_ValueError, "a board is 5 to 48 holes each way");
        return NULL;
    }
    int n = cols * rows, nw = (n + 63) / 64;
    if (expect(masks_len, (Py_ssize_t)16 * nw * 8, "masks") || expect(shifts_len, 8 * 4, "shifts")
        || expect(nb_len, (Py_ssize_t)n * 16 * 4, "neighbours")
        || expect(ends_len, (Py_ssize_t)n * 16 * 4, "link ends")
        || expect(cross_len, (Py_ssize_t)n * 36 * 4, "crossings")
        || expect(frames_len, (Py_ssize_t)2 * FRAME_INTS(n) * 4, "frames"))
        return NULL;
    Tables *t = PyObject_New(Tables, &TablesType);
    if (t == NULL)
        return NULL;
    t->nb = NULL;
    t->nb_count = NULL;
    t->link_lo = NULL;
    t->cross = NULL;
    t->tpos = NULL;
    t->frame = NULL;
    t->cols = cols;
    t->rows = rows;
    t->n = n;
    t->nw = nw;
    t->classic = classic;
    t->nb = PyMem_Malloc((size_t)n * 16 * sizeof(int32_t));
    t->nb_count = PyMem_Malloc((size_t)n);
    t->link_lo = PyMem_Malloc((size_t)n * 16 * sizeof(int32_t));
    t->cross = PyMem_Malloc((size_t)n * 36 * sizeof(int32_t));
    t->frame = PyMem_Malloc((size_t)2 * FRAME_INTS(n) * sizeof(int32_t));
    if (!t->nb || !t->nb_count || !t->link_lo || !t->cross || !t->frame) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    t->link_hi = t->link_lo + 4 * n;
    t->link_step = t->link_hi + 4 * n;
    t->link_back = t->link_step + 4 * n;
    /* masks: all, red first/second, black first/second, placeable red/black, 8 steps, centre */
    BB bbs[16];
    read_bitboards(masks, nw, bbs, 16);
    t->all = bbs[0];
    t->border[0][0] = bbs[1];
    t->border[0][1] = bbs[2];
    t->border[1][0] = bbs[3];
    t->border[1][1] = bbs[4];
    t->placeable[0] = bbs[5];
    t->placeable[1] = bbs[6];
    for (int k = 0; k < 8; k++)
        t->steps[k] = bbs[7 + k];
    t->centre = bbs[15];
    memcpy(t->shifts, shifts, sizeof t->shifts);
    /* neighbours: per hole 8 (neighbour, link id) pairs, -1 padded */
    const int32_t *pairs = (const int32_t *)nb;
    for (int h = 0; h < n; h++) {
        int count = 0;
        for (int j = 0; j < 8; j++) {
            if (pairs[h * 16 + 2 * j] >= 0) {
                t->nb[h * 16 + 2 * count] = pairs[h * 16 + 2 * j];
                t->nb[h * 16 + 2 * count + 1] = pairs[h * 16 + 2 * j + 1];
                count++;
            }
        }
        t->nb_count[h] = (int8_t)count;
    }
    memcpy(t->link_lo, ends, (size_t)n * 16 * sizeof(int32_t));
    memcpy(t->cross, cross, (size_t)n * 36 * sizeof(int32_t));
    memcpy(t->frame, frames, (size_t)2 * FRAME_INTS(n) * sizeof(int32_t));
    if (transpose_tables(t) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    if (!tables_valid(t)) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_ValueError, "a table's hole, link or step is out of range");
        return NULL;
    }
    return (PyObject *)t;
}

/* ---- bitboards --------------------------------------------------------------------------- */

static inline void bb_zero(BB *a, int nw) { memset(a->w, 0, (size_t)nw * 8); }
/* the used words only (a BB is 36 words, a 12x12 board's 3) */
static inline void bb_copy(BB *to, const BB *from, int nw)
{
    memcpy(to->w, from->w, (size_t)nw * 8);
}
static inline int bb_any(const BB *a, int nw)
{
    for (int i = 0; i < nw; i++)
        if (a->w[i])
            return 1;
    return 0;
}
static inline int bb_meets(const BB *a, const BB *b, int nw)
{
    for (int i = 0; i < nw; i++)
        if (a->w[i] & b->w[i])
            return 1;
    return 0;
}
static inline int bb_count(const BB *a, int nw)
{
    int c = 0;
    for (int i = 0; i < nw; i++)
        c += __builtin_popcountll(a->w[i]);
    return c;
}
static inline int bb_test(const BB *a, int i) { return (int)((a->w[i >> 6] >> (i & 63)) & 1); }
static inline void bb_set(BB *a, int i) { a->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void bb_clear(BB *a, int i) { a->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
/* the lowest set bit's index, or -1 */
static inline int bb_low(const BB *a, int nw)
{
    for (int i = 0; i < nw; i++)
        if (a->w[i])
            return i * 64 + __builtin_ctzll(a->w[i]);
    return -1;
}

/* evaluate.spreader: the holes one open knight step from `bits`, allow[k] holding the holes
 * whose step k is open. Each word of `bits` goes to the one or two words its step lands in,
 * from its lowest to its highest set word, the empty ones skipped (a flood fill's frontier is
 * often a band of the board). */
static void spread(const BB *bits, const BB *allow, const int *shifts, int nw, BB *out)
{
    bb_zero(out, nw);
    int lo = 0, hi = nw - 1;
    while (lo < nw && !bits->w[lo])
        lo++;
    if (lo == nw)
        return;
    while (!bits->w[hi])
        hi--;
    for (int k = 0; k < 8; k++) {
        const uint64_t *a = allow[k].w;
        int s = shifts[k];
        if (s > 0) {
            int q = s >> 6, r = s & 63;
            for (int j = lo; j <= hi; j++) {
                uint64_t x = bits->w[j] & a[j];
                if (!x)
                    continue;
                if (j + q < nw)
                    out->w[j + q] |= x << r;
                if (r && j + q + 1 < nw)
                    out->w[j + q + 1] |= x >> (64 - r);
            }
        } else {
            int q = (-s) >> 6, r = (-s) & 63;
            for (int j = lo; j <= hi; j++) {
                uint64_t x = bits->w[j] & a[j];
                if (!x)
                    continue;
                if (j - q >= 0)
                    out->w[j - q] |= x >> r;
                if (r && j - q - 1 >= 0)
                    out->w[j - q - 1] |= x << (64 - r);
            }
        }
    }
}

/* Python's sum() of floats, which the Python core uses: from 3.12 on it compensates the
 * rounding (Neumaier), before it adds in order; the same totals give the same priors */
typedef struct {
    double sum, c;
} Sum;

static inline void sum_add(Sum *s, double x)
{
#if PY_VERSION_HEX >= 0x030C0000
    double t = s->sum + x;
    if (fabs(s->sum) >= fabs(x))
        s->c += (s->sum - t) + x;
    else
        s->c += (x - t) + s->sum;
    s->sum = t;
#else
    s->sum += x;
#endif
}

static inline double sum_total(const Sum *s)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (s->c != 0.0 && isfinite(s->c))
        return s->sum + s->c;
#endif
    return s->sum;
}

/* each of `count` weights divided by their total */
static void normalise(double *weights, int count, const Sum *total)
{
    double by = sum_total(total);
    for (int i = 0; i < count; i++)
        weights[i] = weights[i] / by;
}

/* ---- the search's state ------------------------------------------------------------------- */

typedef struct {
    int distance;
    int nlayers;
    BB *layers; /* path_layers */
    BB path;
} Side;

typedef struct {
    double value, terminal;
    int32_t move, visits;
    int32_t first, count; /* its moves: edges[first .. first + count), first -1: not listed */
    int8_t mover, to_move, decided;
    int32_t kept; /* prune: whether it is kept, then its index after (in the padding) */
} Node;

typedef struct {
    double prior;
    int32_t move, kid; /* kid -1: not visited yet */
} Edge;

/* the tree's size is counted in these (search.NODE_BYTES, search.EDGE_BYTES) by both cores */
_Static_assert(sizeof(Node) == 40, "search.NODE_BYTES is 40");
_Static_assert(sizeof(Edge) == 16, "search.EDGE_BYTES is 16");

typedef struct {
    double c_puct, fpu, narrow, weak, sharpness, tempo, noise;
    int width, root_width, unreachable, pv_length;
    long long max_bytes;
} Params;

/* patterns.py's constants and the learned weights (natural logarithms, patterns.weights) */
#define FEATURES 14
#define WIDTH_BOUNDS 7
#define STEPS_NEAR 3
#define CHAIN_LEVELS 5
#define CUTS 4
#define DENIES 3
#define AREAS 1023
typedef struct {
    const double *table;
    int far, ahead, aside, offsets[FEATURES], widths[WIDTH_BOUNDS];
    /* patterns.area_levels as an open-addressed hash (core.area_slots): per slot an area code
     * (-1: empty) and its level; the slots are 1 << (64 - area_shift) */
    const int64_t *area_keys, *area_levels;
    int area_shift;
    uint64_t area_mask;
} Priors;

typedef struct {
    const Tables *t;
    int n, nw;
    Params p;
    Priors w;
    int root_last, root_own_last; /* the game's last two pegs (Board.recent), -1: none */
    const double *root_scores; /* per hole, the root's ranking (Search's root_scores) or NULL */
    int8_t *peg;     /* per hole: colour or -1 */
    int8_t *link;    /* per link id: colour or -1 */
    uint8_t *cc[2];  /* per colour and link id: how many of its links cross that link */
    BB pegs[2], occ, allow[2][8];
    BB tblack, tocc, tallow[8]; /* Black's pegs, all pegs and Black's allow[], transposed */
    BB *fwd, *bwd;   /* flood-fill layers */
    Side mine, theirs;
    int32_t *stack;  /* connected_through */
    uint32_t *seen;
    uint32_t stamp;
    double *score;   /* ranked */
    int32_t *width_mine, *width_theirs; /* ranked: per hole, its path layer's width */
    BB near_mine[STEPS_NEAR], near_theirs[STEPS_NEAR]; /* ranked: patterns.reach */
    /* ranked: patterns.chains (per peg its chain's number; per chain its members' first
     * index into `members` and the lowest and highest of a coordinate), patterns.ahead_levels
     * (per hole, 0: none) and the holes given a level */
    int32_t *chain_of, *chain_first, *chain_low, *chain_high, *members, *ahead_marked;
    uint8_t *ahead;
    int32_t *listed, *moves, *blocks;
    double *priors;
    uint8_t *is_block;
    /* ranked: per hole, as the side to move sees it: 0 empty (and its to place), 1 its own
     * peg, 2 the opponent's, 3 neither (the square's states of patterns.levels_of) */
    uint8_t *cell;
    const double *rng_values;
    Py_ssize_t rng_count;
    /* the tree in one block of p.max_bytes: nodes from its start upwards, edges (listed
     * moves) from its end downwards (edge j at edges_end - 1 - j), so that what it touches
     * never exceeds the bound */
    char *arena;
    Node *nodes;
    size_t nn;
    Edge *edges_end;
    size_t ne;
    long prunes;
    long long kept_bytes; /* the largest tree a prune left */
    int32_t *path, *placed, *placed_links; /* one iteration's walk */
} Ctx;

/* ---- board.py: place, take_back, connected_through ---------------------------------------- */

/* rules.position._count_crossings */
static void count_crossings(Ctx *c, int lid, int colour, int delta)
{
    const Tables *t = c->t;
    uint8_t *counts = c->cc[colour];
    BB *allow = c->allow[1 - colour];
    int threshold = delta > 0 ? 1 : 0;
    for (int j = 0; j < 9; j++) {
        int other = t->cross[lid * 9 + j];
        if (other < 0)
            break;
        counts[other] = (uint8_t)(counts[other] + delta);
        if (counts[other] == threshold) {
            int lo = t->link_lo[other], hi = t->link_hi[other];
            int step = t->link_step[other], back = t->link_back[other];
            if (delta > 0) {
                bb_clear(&allow[step], lo);
                bb_clear(&allow[back], hi);
            } else {
                bb_set(&allow[step], lo);
                bb_set(&allow[back], hi);
            }
            if (colour == 0) { /* Black's allow[], transposed too */
                if (delta > 0) {
                    bb_clear(&c->tallow[step], t->tpos[lo]);
                    bb_clear(&c->tallow[back], t->tpos[hi]);
                } else {
                    bb_set(&c->tallow[step], t->tpos[lo]);
                    bb_set(&c->tallow[back], t->tpos[hi]);
                }
            }
        }
    }
}

static void add_link(Ctx *c, int lid, int colour)
{
    c->link[lid] = (int8_t)colour;
    count_crossings(c, lid, colour, +1);
}

static void put_peg(Ctx *c, int index, int colour)
{
    c->peg[index] = (int8_t)colour;
    bb_set(&c->pegs[colour], index);
    bb_set(&c->occ, index);
    bb_set(&c->tocc, c->t->tpos[index]);
    if (colour == 1)
        bb_set(&c->tblack, c->t->tpos[index]);
}

/* Board.place: the peg with every link it may have (position.linkable); the links go to
 * `out` (at most 8), their number is returned */
static int place(Ctx *c, int index, int colour, int32_t *out)
{
    const Tables *t = c->t;
    int opponent = 1 - colour, count = 0;
    put_peg(c, index, colour);
    for (int j = 0; j < t->nb_count[index]; j++) {
        int neighbour = t->nb[index * 16 + 2 * j], lid = t->nb[index * 16 + 2 * j + 1];
        if (c->peg[neighbour] == colour && c->link[lid] == NONE && !c->cc[opponent][lid]
            && !(t->classic && c->cc[colour][lid]))
            out[count++] = lid;
    }
    for (int j = 0; j < count; j++)
        add_link(c, out[j], colour);
    return count;
}

/* Board.take_back */
static void take_back(Ctx *c, int index, const int32_t *links, int count)
{
    for (int j = 0; j < count; j++) {
        int lid = links[j], colour = c->link[lid];
        c->link[lid] = NONE;
        count_crossings(c, lid, colour, -1);
    }
    int colour = c->peg[index];
    c->peg[index] = NONE;
    bb_clear(&c->pegs[colour], index);
    bb_clear(&c->occ, index);
    bb_clear(&c->tocc, c->t->tpos[index]);
    if (colour == 1)
        bb_clear(&c->tblack, c->t->tpos[index]);
}

/* Board.connected_through */
static int connected_through(Ctx *c, int index)
{
    const Tables *t = c->t;
    int colour = c->peg[index];
    const BB *first = &t->border[colour][0], *second = &t->border[colour][1];
    if (++c->stamp == 0) {
        memset(c->seen, 0, (size_t)c->n * sizeof(uint32_t));
        c->stamp = 1;
    }
    int top = 0, one = 0, two = 0;
    c->stack[top++] = index;
    c->seen[index] = c->stamp;
    while (top) {
        int here = c->stack[--top];
        one |= bb_test(first, here);
        two |= bb_test(second, here);
        for (int j = 0; j < t->nb_count[here]; j++) {
            int neighbour = t->nb[here * 16 + 2 * j], lid = t->nb[here * 16 + 2 * j + 1];
            if (c->seen[neighbour] != c->stamp && c->link[lid] == colour) {
                c->seen[neighbour] = c->stamp;
                c->stack[top++] = neighbour;
            }
        }
    }
    return one && two;
}

/* ---- evaluate.py ---------------------------------------------------------------------------- */

/* evaluate._layers: the number of layers written to `out`, 0 for [] */
static int layers(Ctx *c, const BB *start, const BB *goal, const BB *own, const BB *empty,
                  const BB *allow, const int *shifts, int cap, BB *out)
{
    int nw = c->nw, len = 0;
    BB reached, entry, by_own, fresh, grow, tmp;
    bb_zero(&reached, nw);
    for (int i = 0; i < nw; i++)
        entry.w[i] = start->w[i] & own->w[i];
    if (bb_any(own, nw))
        spread(own, allow, shifts, nw, &by_own);
    else
        bb_zero(&by_own, nw);
    for (;;) {
        bb_copy(&fresh, &entry, nw);
        bb_copy(&grow, &entry, nw);
        while (bb_any(&grow, nw)) {
            for (int i = 0; i < nw; i++)
                reached.w[i] |= grow.w[i];
            if (bb_meets(&grow, &by_own, nw)) {
                spread(&grow, allow, shifts, nw, &tmp);
                for (int i = 0; i < nw; i++)
                    grow.w[i] = tmp.w[i] & own->w[i] & ~reached.w[i];
            } else {
                bb_zero(&grow, nw);
            }
            for (int i = 0; i < nw; i++)
                fresh.w[i] |= grow.w[i];
        }
        bb_copy(&out[len++], &reached, nw);
        if (bb_meets(&reached, goal, nw))
            return len;
        if (len > cap)
            return 0;
        spread(&fresh, allow, shifts, nw, &entry);
        int any = 0;
        for (int i = 0; i < nw; i++) {
            uint64_t e = entry.w[i];
            if (len == 1)
                e |= start->w[i];
            e &= empty->w[i] & ~reached.w[i];
            entry.w[i] = e;
            any |= e != 0;
        }
        if (!any)
            return 0;
    }
}

/* evaluate.side; with `paths` 0 only the distance (s->layers may be NULL). Black's fills
 * run on the transposed board (see Tables), its path layers moved back. */
static void side(Ctx *c, int colour, int paths, int cap, Side *s)
{
    const Tables *t = c->t;
    int nw = c->nw, opponent = 1 - colour, across = colour == 1;
    const BB *all = across ? &t->tall : &t->all, *occ = across ? &c->tocc : &c->occ;
    const BB(*border)[2] = across ? t->tborder : t->border;
    BB empty;
    for (int i = 0; i < nw; i++)
        empty.w[i] = all->w[i] & ~occ->w[i] & ~border[opponent][0].w[i]
                     & ~border[opponent][1].w[i];
    const BB *own = across ? &c->tblack : &c->pegs[colour];
    const BB *allow = across ? c->tallow : c->allow[colour];
    const int *shifts = across ? t->tshifts : t->shifts;
    const BB *first = &border[colour][0], *second = &border[colour][1];
    s->nlayers = 0;
    bb_zero(&s->path, nw);
    int forward = layers(c, first, second, own, &empty, allow, shifts, cap, c->fwd);
    if (!forward) {
        s->distance = c->p.unreachable;
        return;
    }
    int distance = forward - 1;
    s->distance = distance;
    if (!paths || distance == 0)
        return;
    int backward = layers(c, second, first, own, &empty, allow, shifts, cap, c->bwd);
    if (backward != forward) /* the fills are symmetric: never */
        return;
    const BB *before = &c->fwd[0];
    for (int k = 1; k <= distance; k++) {
        BB *layer = &s->layers[k - 1];
        for (int i = 0; i < nw; i++)
            layer->w[i] = c->fwd[k].w[i] & ~before->w[i] & c->bwd[distance + 1 - k].w[i]
                          & empty.w[i];
        if (across) {
            BB here;
            bb_copy(&here, layer, nw);
            moved(&here, t->tinv, nw, layer);
        }
        for (int i = 0; i < nw; i++)
            s->path.w[i] |= layer->w[i];
        before = &c->fwd[k];
    }
    s->nlayers = distance;
}

/* Side.effective */
static double effective(const Ctx *c, const Side *s, double narrow)
{
    if (s->distance >= c->p.unreachable)
        return (double)c->p.unreachable;
    int width = 0;
    Sum weak = {0.0, 0.0};
    for (int k = 0; k < s->nlayers; k++) {
        int count = bb_count(&s->layers[k], c->nw);
        if (k == 0 || count < width)
            width = count;
        if (count)
            sum_add(&weak, 1.0 / count);
    }
    return (double)s->distance + (width ? narrow / width : 0.0) + c->p.weak * sum_total(&weak);
}

/* evaluate.win_chance */
static double win_chance(const Ctx *c, const Side *mine, const Side *theirs)
{
    double a = effective(c, mine, c->p.narrow), b = effective(c, theirs, c->p.narrow);
    double unreachable = (double)c->p.unreachable;
    if (a >= unreachable && b >= unreachable)
        return 0.5;
    if (a >= unreachable)
        return 0.01;
    if (b >= unreachable)
        return 0.99;
    double x = c->p.sharpness * (b - a + c->p.tempo);
    return 1.0 / (1.0 + exp(-x));
}

/* ---- candidates.py ------------------------------------------------------------------------ */

/* holes before b: the higher score first, then the lower hole (ranked's sort key) */
static inline int before(const double *score, int a, int b)
{
    return score[a] > score[b] || (score[a] == score[b] && a < b);
}

/* `hole` into the best `*kept` of `best` (at most `count`, in `before` order): what
 * sorted(...)[:count] keeps, without sorting the rest */
static void keep_best(int32_t *best, int *kept, int count, const double *score, int hole)
{
    int at = *kept;
    if (count < 1)
        return;
    if (at == count) {
        if (!before(score, hole, best[count - 1]))
            return;
        at--;
    } else {
        (*kept)++;
    }
    for (; at > 0 && before(score, hole, best[at - 1]); at--)
        best[at] = best[at - 1];
    best[at] = hole;
}

/* patterns.width_level */
static int width_level(const Ctx *c, int width)
{
    if (!width)
        return 0;
    for (int level = 1; level <= WIDTH_BOUNDS; level++)
        if (width <= c->w.widths[level - 1])
            return level;
    return WIDTH_BOUNDS + 1;
}

static inline int capped(int value, int far)
{
    return value < far ? value : far;
}

/* patterns._outwards */
static inline int outwards(int far, int position, int size, int offset)
{
    if (2 * position < size - 1)
        offset = -offset;
    else if (2 * position == size - 1)
        offset = abs(offset);
    return (offset < -far ? -far : offset > far ? far : offset) + far;
}

/* patterns.levels_of: the last and own_last offsets */
static int offset_level(const Ctx *c, const int32_t *along, const int32_t *across,
                        int along_size, int across_size, int hole, int peg)
{
    int far = c->w.far, signed_levels = 2 * far + 1;
    if (peg < 0)
        return signed_levels * signed_levels;
    return outwards(far, along[peg], along_size, along[hole] - along[peg]) * signed_levels
           + outwards(far, across[peg], across_size, across[hole] - across[peg]);
}

/* patterns.levels_of: the near levels (patterns.near_levels) */
static inline int steps_level(const BB *within, int hole)
{
    for (int steps = 0; steps < STEPS_NEAR; steps++)
        if (bb_test(&within[steps], hole))
            return steps;
    return STEPS_NEAR;
}

/* a colour's frame: per hole its along (its across follows) */
static inline const int32_t *along_of(const Ctx *c, int colour)
{
    return c->t->frame + colour * FRAME_INTS(c->n) + c->n * FRAME_AROUND;
}

/* patterns.chains of `colour`: per peg c->chain_of, per chain its members (lowest hole
 * first not needed: only extents are used) from c->chain_first, and the lowest and highest
 * of `coordinate` (along or across); returns the number of chains */
static int label_chains(Ctx *c, int colour, const int32_t *coordinate)
{
    const Tables *t = c->t;
    if (++c->stamp == 0) {
        memset(c->seen, 0, (size_t)c->n * sizeof(uint32_t));
        c->stamp = 1;
    }
    int chains = 0, filled = 0;
    for (int i = 0; i < c->nw; i++)
        for (uint64_t w = c->pegs[colour].w[i]; w; w &= w - 1) {
            int start = i * 64 + __builtin_ctzll(w);
            if (c->seen[start] == c->stamp)
                continue;
            c->seen[start] = c->stamp;
            c->chain_first[chains] = filled;
            c->chain_low[chains] = c->chain_high[chains] = coordinate[start];
            int top = 0;
            c->stack[top++] = start;
            while (top) {
                int here = c->stack[--top];
                c->members[filled++] = here;
                c->chain_of[here] = chains;
                if (coordinate[here] < c->chain_low[chains])
                    c->chain_low[chains] = coordinate[here];
                if (coordinate[here] > c->chain_high[chains])
                    c->chain_high[chains] = coordinate[here];
                for (int j = 0; j < t->nb_count[here]; j++) {
                    int neighbour = t->nb[here * 16 + 2 * j], lid = t->nb[here * 16 + 2 * j + 1];
                    if (c->seen[neighbour] != c->stamp && c->peg[neighbour] == colour
                        && c->link[lid] == colour) {
                        c->seen[neighbour] = c->stamp;
                        c->stack[top++] = neighbour;
                    }
                }
            }
            chains++;
        }
    c->chain_first[chains] = filled;
    return chains;
}

/* patterns.ahead_levels: c->ahead for the holes in front of the ends of `colour`'s opponent's
 * chains (the chain of its `last` peg first); the holes marked into c->ahead_marked, their
 * number returned */
static int mark_ahead(Ctx *c, int colour, int last)
{
    const Tables *t = c->t;
    int n = c->n, marked = 0;
    const int32_t *along = along_of(c, colour), *across = along + n;
    int along_size = colour == 0 ? t->rows : t->cols, across_size = colour == 0 ? t->cols : t->rows;
    int chains = label_chains(c, 1 - colour, across);
    int last_chain = last >= 0 && c->peg[last] == 1 - colour ? c->chain_of[last] : -1;
    for (int k = 0; k < chains; k++) {
        int beyond_last = k == last_chain ? 0 : c->w.ahead * (c->w.aside + 1);
        for (int m = c->chain_first[k]; m < c->chain_first[k + 1]; m++) {
            int peg = c->members[m];
            for (int direction = -1; direction <= 1; direction += 2) {
                int end = direction < 0 ? c->chain_low[k] : c->chain_high[k];
                if (across[peg] != end)
                    continue;
                for (int beyond = 1; beyond <= c->w.ahead; beyond++) {
                    int x = end + direction * beyond;
                    if (x < 0 || x >= across_size)
                        break;
                    for (int aside = -c->w.aside; aside <= c->w.aside; aside++) {
                        int a = along[peg] + aside;
                        if (a < 0 || a >= along_size)
                            continue;
                        int hole = colour == 0 ? a * t->cols + x : x * t->cols + a;
                        int level = 1 + (beyond - 1) * (c->w.aside + 1) + abs(aside)
                                    + beyond_last;
                        if (!c->ahead[hole]) {
                            c->ahead_marked[marked++] = hole;
                            c->ahead[hole] = (uint8_t)level;
                        } else if (level < c->ahead[hole]) {
                            c->ahead[hole] = (uint8_t)level;
                        }
                    }
                }
            }
        }
    }
    return marked;
}

/* patterns.levels_of: the square code of a hole's eight `neighbours` (-1: off the board), from c->cell */
static int square_code(const Ctx *c, const int32_t *neighbours)
{
    int code = 0, scale = 1;
    for (int j = 0; j < SQUARE; j++) {
        int neighbour = neighbours[j];
        code += (neighbour < 0 ? 3 : c->cell[neighbour]) * scale;
        scale *= 4;
    }
    return code;
}

/* patterns.area_levels[key], 0 for a code it does not hold (core.area_slots: the same hash
 * and probing) */
static int area_level(const Ctx *c, int64_t key)
{
    uint64_t at = ((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> c->w.area_shift;
    for (;; at = (at + 1) & c->w.area_mask) {
        if (c->w.area_keys[at] == key)
            return (int)c->w.area_levels[at];
        if (c->w.area_keys[at] < 0)
            return 0;
    }
}

/* patterns.levels_of's `cut` for an own link `lid` of the new peg: the opponent's possible
 * links it crosses */
static int cuts(const Ctx *c, int colour, int lid)
{
    const Tables *t = c->t;
    int opponent = 1 - colour, found = 0;
    for (int k = 0; k < 9; k++) {
        int x = t->cross[lid * 9 + k];
        if (x < 0)
            break;
        int low = t->link_lo[x], high = t->link_hi[x];
        if (low < 0 || c->link[x] != NONE || c->cc[colour][x]
            || (t->classic && c->cc[opponent][x]))
            continue;
        int a = c->peg[low], b = c->peg[high];
        if ((a == opponent
             && (b == opponent || (b == NONE && bb_test(&t->placeable[opponent], high))))
            || (b == opponent && a == NONE && bb_test(&t->placeable[opponent], low)))
            found++;
    }
    return found;
}

/* patterns.strength of patterns.levels_of: the logarithms added in the features' order */
static double strength(const Ctx *c, int colour, int last, int own_last, int hole)
{
    const Tables *t = c->t;
    int n = c->n, far = c->w.far, opponent = 1 - colour;
    const int32_t *ring = t->frame + colour * FRAME_INTS(n);
    const int32_t *lids = ring + n * RING, *square = lids + n * RING, *outer = square + n * SQUARE;
    const int32_t *along = outer + n * SQUARE, *across = along + n;
    const double *table = c->w.table;
    /* patterns.levels_of: the ring code */
    int code = 0, scale = 1, linked[RING], chains = 0, longer = 0, cut = 0, denies = 0;
    for (int j = 0; j < RING; j++) {
        int neighbour = ring[hole * RING + j], lid = lids[hole * RING + j], state;
        int cell = neighbour < 0 ? 3 : c->cell[neighbour];
        if (cell == 0) {
            state = 0;
        } else if (cell == 3) {
            state = 4;
        } else if (cell == 2) {
            state = 3;
            /* patterns.levels_of: `denies` */
            denies += !(c->cc[colour][lid] || (t->classic && c->cc[opponent][lid]));
        } else if (c->cc[opponent][lid] || (t->classic && c->cc[colour][lid])) {
            state = 2;
        } else {
            state = 1;
            cut += cuts(c, colour, lid);
            /* patterns.levels_of: the chain level, the distinct chains it links to */
            int chain = c->chain_of[neighbour], known = 0;
            for (int k = 0; k < chains; k++)
                known |= linked[k] == chain;
            if (!known) {
                linked[chains++] = chain;
                longer |= along[hole] < c->chain_low[chain] || along[hole] > c->chain_high[chain];
            }
        }
        code += state * scale;
        scale *= 5;
    }
    int chain_level = chains ? (chains == 1 ? 1 : 3) + longer : 0;
    if (!bb_test(&t->placeable[opponent], hole))
        denies = 0;
    int shape = square_code(c, square + hole * SQUARE);
    int outer_shape = square_code(c, outer + hole * SQUARE);
    /* patterns.edge_level */
    int along_size = colour == 0 ? t->rows : t->cols, across_size = colour == 0 ? t->cols : t->rows;
    int edge = capped(capped(along[hole], along_size - 1 - along[hole]), far) * (far + 1)
               + capped(capped(across[hole], across_size - 1 - across[hole]), far);
    int near = steps_level(c->near_mine, hole) * (STEPS_NEAR + 1)
               + steps_level(c->near_theirs, hole);
    double total = 0.0;
    total += table[c->w.offsets[0] + code];
    total += table[c->w.offsets[1] + shape];
    total += table[c->w.offsets[2] + outer_shape];
    total += table[c->w.offsets[3] + offset_level(c, along, across, along_size, across_size,
                                                  hole, last)];
    total += table[c->w.offsets[4] + offset_level(c, along, across, along_size, across_size,
                                                  hole, own_last)];
    total += table[c->w.offsets[5] + near];
    total += table[c->w.offsets[6] + chain_level];
    total += table[c->w.offsets[7] + c->ahead[hole]];
    total += table[c->w.offsets[8] + edge];
    total += table[c->w.offsets[9] + width_level(c, c->width_mine[hole])];
    total += table[c->w.offsets[10] + width_level(c, c->width_theirs[hole])];
    total += table[c->w.offsets[11]
                   + area_level(c, ((int64_t)code * 65536 + shape) * 65536 + outer_shape)];
    total += table[c->w.offsets[12] + capped(cut, CUTS)];
    total += table[c->w.offsets[13] + capped(denies, DENIES)];
    return total;
}

/* patterns.path_levels (the widths here, their levels in strength): each hole of `pool` on a
 * layer of `s` gets the layer's width in `out` */
static void mark_widths(const Ctx *c, const Side *s, const BB *pool, int32_t *out)
{
    for (int k = 0; k < s->nlayers; k++) {
        const BB *layer = &s->layers[k];
        int width = -1;
        for (int i = 0; i < c->nw; i++)
            for (uint64_t w = layer->w[i] & pool->w[i]; w; w &= w - 1) {
                if (width < 0)
                    width = bb_count(layer, c->nw);
                out[i * 64 + __builtin_ctzll(w)] = width;
            }
    }
}

/* candidates.pool */
static void candidate_pool(Ctx *c, int last, int own_last, const Side *mine, const Side *theirs,
                           const BB *free, int everywhere, BB *pool)
{
    const Tables *t = c->t;
    int nw = c->nw;
    if (everywhere) {
        bb_copy(pool, free, nw);
        return;
    }
    BB pegs, around, further;
    bb_zero(&pegs, nw);
    if (last >= 0)
        bb_set(&pegs, last);
    if (own_last >= 0)
        bb_set(&pegs, own_last);
    spread(&pegs, t->steps, t->shifts, nw, &around);
    spread(&around, t->steps, t->shifts, nw, &further);
    spread(&c->occ, t->steps, t->shifts, nw, &pegs); /* now: next to some peg */
    for (int i = 0; i < nw; i++)
        pool->w[i] = (around.w[i] | further.w[i]
                      | ((mine->path.w[i] | theirs->path.w[i]) & pegs.w[i])) & free->w[i];
    if (bb_any(pool, nw))
        return;
    for (int i = 0; i < nw; i++)
        pool->w[i] = t->centre.w[i] & free->w[i];
    if (!bb_any(pool, nw))
        bb_copy(pool, free, nw);
}

/* patterns.reach: the holes within 1, 2, ... STEPS_NEAR knight's steps of `pegs` */
static void reach(const Ctx *c, const BB *pegs, BB *out)
{
    const Tables *t = c->t;
    BB bits, more;
    bb_copy(&bits, pegs, c->nw);
    for (int steps = 0; steps < STEPS_NEAR; steps++) {
        spread(&bits, t->steps, t->shifts, c->nw, &more);
        for (int i = 0; i < c->nw; i++)
            bits.w[i] |= more.w[i];
        bb_copy(&out[steps], &bits, c->nw);
    }
}

/* candidates.ranked: up to `count` holes into c->moves and their priors into c->priors */
static int ranked(Ctx *c, int colour, int last, int own_last, const Side *mine,
                  const Side *theirs, const BB *free, int count, int everywhere)
{
    int nw = c->nw, best = 0;
    BB pool;
    candidate_pool(c, last, own_last, mine, theirs, free, everywhere, &pool);
    reach(c, &c->pegs[colour], c->near_mine);
    reach(c, &c->pegs[1 - colour], c->near_theirs);
    int marked = mark_ahead(c, colour, last);
    for (int hole = 0; hole < c->n; hole++)
        c->cell[hole] = c->peg[hole] == NONE ? (bb_test(&c->t->placeable[colour], hole) ? 0 : 3)
                                             : (c->peg[hole] == colour ? 1 : 2);
    label_chains(c, colour, along_of(c, colour));
    mark_widths(c, mine, &pool, c->width_mine);
    mark_widths(c, theirs, &pool, c->width_theirs);
    for (int i = 0; i < nw; i++)
        for (uint64_t w = pool.w[i]; w; w &= w - 1) {
            int hole = i * 64 + __builtin_ctzll(w);
            c->score[hole] = everywhere && c->root_scores ? c->root_scores[hole]
                                                          : strength(c, colour, last, own_last, hole);
            keep_best(c->listed, &best, count, c->score, hole);
            c->width_mine[hole] = 0;
            c->width_theirs[hole] = 0;
        }
    for (int j = 0; j < marked; j++)
        c->ahead[c->ahead_marked[j]] = 0;
    if (!best)
        return 0;
    double top = c->score[c->listed[0]];
    Sum total = {0.0, 0.0};
    for (int j = 0; j < best; j++) {
        c->moves[j] = c->listed[j];
        c->priors[j] = exp(c->score[c->listed[j]] - top);
        sum_add(&total, c->priors[j]);
    }
    normalise(c->priors, best, &total);
    return best;
}

/* ---- search.py ------------------------------------------------------------------------------ */

/* search.winning_holes, the first one (the search plays no other), or -1 */
static int winning_hole(Ctx *c, int colour, const Side *mine)
{
    if (mine->distance != 1)
        return -1;
    int32_t links[8];
    for (int k = 0; k < mine->nlayers; k++)
        for (int i = 0; i < c->nw; i++)
            for (uint64_t w = mine->layers[k].w[i]; w; w &= w - 1) {
                int hole = i * 64 + __builtin_ctzll(w);
                int count = place(c, hole, colour, links);
                int won = connected_through(c, hole);
                take_back(c, hole, links, count);
                if (won)
                    return hole;
            }
    return -1;
}

/* search.blocking_holes into c->blocks; their number */
static int blocking_holes(Ctx *c, int colour, const Side *theirs, const BB *free)
{
    const Tables *t = c->t;
    int nw = c->nw, found = 0, opponent = 1 - colour;
    BB region, far, mine_near, candidates;
    spread(&theirs->path, t->steps, t->shifts, nw, &region);
    spread(&region, t->steps, t->shifts, nw, &far);
    spread(&c->pegs[colour], t->steps, t->shifts, nw, &mine_near);
    for (int i = 0; i < nw; i++)
        candidates.w[i] = (theirs->path.w[i] | ((region.w[i] | far.w[i]) & mine_near.w[i]))
                          & free->w[i];
    int32_t links[8];
    Side after = {0, 0, NULL, {{0}}};
    for (int i = 0; i < nw; i++)
        for (uint64_t w = candidates.w[i]; w; w &= w - 1) {
            int hole = i * 64 + __builtin_ctzll(w);
            int count = place(c, hole, colour, links);
            side(c, opponent, 0, 1, &after);
            if (after.distance > 1)
                c->blocks[found++] = hole;
            take_back(c, hole, links, count);
        }
    return found;
}

static inline Edge *edge_at(const Ctx *c, size_t j)
{
    return c->edges_end - 1 - j;
}

/* Search._fits: room for one more node and the moves of one expansion within the bound */
static int fits(const Ctx *c)
{
    size_t want_edges = c->ne + (size_t)c->n + 8;
    return (long long)((c->nn + 1) * sizeof(Node) + want_edges * sizeof(Edge)) <= c->p.max_bytes;
}

/* Search._kept_bytes: mark the nodes a prune with `min_count` keeps (the root, its children
 * and every node visited at least min_count times: a connected tree, since a child is never
 * visited more than its parent) and count their size */
static long long mark_kept(Ctx *c, long min_count)
{
    long long bytes = 0;
    for (size_t i = 0; i < c->nn; i++)
        c->nodes[i].kept = i == 0 || c->nodes[i].visits >= min_count;
    const Node *root = &c->nodes[0];
    for (int i = 0; i < root->count; i++) {
        int kid = edge_at(c, root->first + i)->kid;
        if (kid >= 0)
            c->nodes[kid].kept = 1;
    }
    for (size_t i = 0; i < c->nn; i++)
        if (c->nodes[i].kept)
            bytes += (long long)(sizeof(Node) + (size_t)c->nodes[i].count * sizeof(Edge));
    return bytes;
}

/* Search._prune: when the tree is full, keep the root, its children and the nodes visited at
 * least min_count times, min_count doubling from 2 until what is kept takes at most half the
 * bound (as Fuego's SgUctSearch does when its tree is full: its PruneFullTree and
 * PruneMinCount, SgUctTree::CopyPruneLowCount). A dropped child becomes an unvisited move of
 * its parent again (its move and prior stay listed); the parent keeps its visits and value.
 * In place: a child is created, and its moves listed, after its parent, so copying the kept
 * nodes and their moves in order only ever moves them towards the block's ends. 1 when the
 * search can go on, 0 when even the root and its children leave no room. */
static int prune(Ctx *c)
{
    long long half = c->p.max_bytes / 2;
    long min_count = 2;
    long long bytes = mark_kept(c, min_count);
    while (bytes > half && min_count <= c->nodes[0].visits) {
        min_count *= 2;
        bytes = mark_kept(c, min_count);
    }
    int32_t kept = 0;
    for (size_t i = 0; i < c->nn; i++)
        c->nodes[i].kept = c->nodes[i].kept ? kept++ : -1;
    size_t ne = 0;
    for (size_t i = 0; i < c->nn; i++) {
        Node node = c->nodes[i];
        if (node.kept < 0)
            continue;
        if (node.first >= 0) {
            for (int j = 0; j < node.count; j++) {
                Edge e = *edge_at(c, (size_t)node.first + j);
                e.kid = e.kid >= 0 ? c->nodes[e.kid].kept : -1;
                *edge_at(c, ne + j) = e;
            }
            node.first = (int32_t)ne;
            ne += (size_t)node.count;
        }
        c->nodes[node.kept] = node;
    }
    c->nn = (size_t)kept;
    c->ne = ne;
    c->prunes++;
    if (bytes > c->kept_bytes)
        c->kept_bytes = bytes;
    return fits(c);
}

static int new_node(Ctx *c, int move, int mover, int to_move)
{
    Node *node = &c->nodes[c->nn];
    node->value = 0.0;
    node->terminal = 0.0;
    node->move = move;
    node->visits = 0;
    node->first = -1;
    node->count = 0;
    node->mover = (int8_t)mover;
    node->to_move = (int8_t)to_move;
    node->decided = 0;
    return (int)c->nn++;
}

/* the node's moves from c->moves / c->priors */
static void list_moves(Ctx *c, Node *node, int count)
{
    node->first = (int32_t)c->ne;
    node->count = count;
    for (int j = 0; j < count; j++) {
        Edge *e = edge_at(c, c->ne++);
        e->move = c->moves[j];
        e->prior = c->priors[j];
        e->kid = -1;
    }
}

/* Search._decide: at most one move */
static double decide(Ctx *c, Node *node, double value, int move)
{
    node->decided = 1;
    node->terminal = value;
    int count = 0;
    if (move >= 0) {
        c->moves[0] = move;
        c->priors[0] = 1.0;
        count = 1;
    }
    list_moves(c, node, count);
    return value;
}

/* Search._perturb */
static void perturb(Ctx *c, int count)
{
    double noise = c->p.noise;
    Sum total = {0.0, 0.0};
    for (int i = 0; i < count; i++) {
        c->priors[i] = c->priors[i] * (1.0 - noise) + noise * c->rng_values[i % c->rng_count];
        sum_add(&total, c->priors[i]);
    }
    normalise(c->priors, count, &total);
}

/* Search._expand, with the last two pegs before the node (Search._recent) */
static double expand(Ctx *c, Node *node, int root, int last, int own_last)
{
    const Tables *t = c->t;
    int nw = c->nw, colour = node->to_move, opponent = 1 - colour;
    Side *mine = &c->mine, *theirs = &c->theirs;
    side(c, opponent, 1, c->p.unreachable, theirs);
    if (theirs->distance == 0 && node->move >= 0 && connected_through(c, node->move))
        return decide(c, node, 0.0, -1);
    BB free;
    for (int i = 0; i < nw; i++)
        free.w[i] = t->placeable[colour].w[i] & ~c->occ.w[i];
    if (!bb_any(&free, nw))
        return decide(c, node, 0.5, -1);
    side(c, colour, 1, c->p.unreachable, mine);
    if (mine->distance >= c->p.unreachable && theirs->distance >= c->p.unreachable)
        return decide(c, node, 0.5, -1);
    int win = winning_hole(c, colour, mine);
    if (win >= 0)
        return decide(c, node, 1.0, win);
    int count;
    if (theirs->distance == 1) {
        int blocks = blocking_holes(c, colour, theirs, &free);
        if (!blocks) {
            BB threatened;
            for (int i = 0; i < nw; i++)
                threatened.w[i] = theirs->path.w[i] & free.w[i];
            return decide(c, node, 0.0, bb_low(&threatened, nw));
        }
        int listed = ranked(c, colour, last, own_last, mine, theirs, &free, blocks + 4, root);
        for (int j = 0; j < blocks; j++)
            c->is_block[c->blocks[j]] = 1;
        count = 0;
        for (int j = 0; j < listed; j++)
            if (c->is_block[c->moves[j]]) {
                c->is_block[c->moves[j]] = 2; /* listed */
                c->moves[count] = c->moves[j];
                c->priors[count++] = c->priors[j];
            }
        for (int j = 0; j < blocks; j++) {
            if (c->is_block[c->blocks[j]] == 1) {
                c->moves[count] = c->blocks[j];
                c->priors[count++] = 0.01;
            }
            c->is_block[c->blocks[j]] = 0;
        }
        Sum total = {0.0, 0.0};
        for (int j = 0; j < count; j++)
            sum_add(&total, c->priors[j]);
        normalise(c->priors, count, &total);
    } else {
        count = ranked(c, colour, last, own_last, mine, theirs, &free,
                       root ? c->p.root_width : c->p.width, root);
    }
    if (root && c->p.noise != 0.0 && count > 1)
        perturb(c, count);
    list_moves(c, node, count);
    return win_chance(c, mine, theirs);
}

static inline double q(const Node *node)
{
    return node->visits ? node->value / node->visits : 0.5;
}

/* Search._select: the child (created when new) the walk goes to */
static int select_child(Ctx *c, int at)
{
    Node *node = &c->nodes[at];
    double explore = c->p.c_puct * sqrt((double)node->visits);
    double parent_q = node->mover != node->to_move ? 1.0 - q(node) : q(node);
    double fpu = parent_q - c->p.fpu;
    int best = 0;
    double best_score = -1e9;
    for (int i = 0; i < node->count; i++) {
        const Edge *e = edge_at(c, node->first + i);
        double score;
        if (e->kid < 0 || !c->nodes[e->kid].visits) {
            score = fpu + explore * e->prior;
        } else {
            const Node *kid = &c->nodes[e->kid];
            score = kid->value / kid->visits + explore * e->prior / (double)(1 + kid->visits);
        }
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    Edge *e = edge_at(c, node->first + best);
    if (e->kid < 0) {
        int to_move = node->to_move, move = e->move;
        e->kid = new_node(c, move, to_move, 1 - to_move); /* node may move: read it first */
    }
    return e->kid;
}

/* Search._backup */
static void backup(Ctx *c, const int32_t *path, int length, double value, int to_move)
{
    for (int j = 0; j < length; j++) {
        Node *node = &c->nodes[path[j]];
        node->visits += 1;
        node->value += node->mover == to_move ? value : 1.0 - value;
    }
}

/* Search.best_child: the most visited (the better value, then the prior, on ties), or -1 */
static int best_child(const Ctx *c, const Node *node)
{
    if (node->first < 0 || !node->count)
        return -1;
    int best = 0;
    long best_visits = -1;
    double best_q = -1.0, best_prior = -1.0;
    for (int i = 0; i < node->count; i++) {
        const Edge *e = edge_at(c, node->first + i);
        long visits = 0;
        double value = 0.0;
        if (e->kid >= 0) {
            visits = c->nodes[e->kid].visits;
            value = q(&c->nodes[e->kid]);
        }
        if (visits > best_visits || (visits == best_visits && (value > best_q
            || (value == best_q && e->prior > best_prior)))) {
            best = i;
            best_visits = visits;
            best_q = value;
            best_prior = e->prior;
        }
    }
    return best;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Search.run; -1 when a signal handler raised (the exception is set) */
static long run(Ctx *c, int to_move, long budget, double seconds, double *root_eval)
{
    double deadline = seconds >= 0 ? now() + seconds : -1.0;
    int root = new_node(c, -1, 1 - to_move, to_move);
    *root_eval = expand(c, &c->nodes[root], 1, c->root_last, c->root_own_last);
    int32_t path[1] = {root};
    backup(c, path, 1, *root_eval, to_move);
    long nodes = 1;
    if (c->nodes[root].decided || c->nodes[root].count <= 1)
        return nodes;
    int interrupted = 0;
    Py_BEGIN_ALLOW_THREADS
    while (nodes < budget) {
        if (deadline >= 0 && now() >= deadline)
            break;
        if ((nodes & 1023) == 0) {
            Py_BLOCK_THREADS
            interrupted = PyErr_CheckSignals() < 0;
            Py_UNBLOCK_THREADS
            if (interrupted)
                break;
        }
        if (!fits(c) && !prune(c))
            break;
        int at = root, length = 0, depth = 0, used = 0;
        c->path[length++] = at;
        while (c->nodes[at].first >= 0 && !c->nodes[at].decided) {
            at = select_child(c, at);
            const Node *node = &c->nodes[at];
            c->placed[2 * depth] = used;
            int count = place(c, node->move, node->mover, c->placed_links + used);
            c->placed[2 * depth + 1] = count;
            used += count;
            depth++;
            c->path[length++] = at;
        }
        Node *leaf = &c->nodes[at];
        /* Search._recent: the walk's last two moves, the game's before them */
        int last = leaf->move;
        int own_last = length >= 3 ? c->nodes[c->path[length - 2]].move : c->root_last;
        double value = leaf->decided ? leaf->terminal : expand(c, leaf, 0, last, own_last);
        backup(c, c->path, length, value, c->nodes[at].to_move);
        for (int d = depth - 1; d >= 0; d--)
            take_back(c, c->nodes[c->path[d + 1]].move, c->placed_links + c->placed[2 * d],
                      c->placed[2 * d + 1]);
        nodes++;
    }
    Py_END_ALLOW_THREADS
    return interrupted ? -1 : nodes;
}

/* ---- the call from Python ---------------------------------------------------------------- */

static void ctx_free(Ctx *c)
{
    free(c->peg);
    free(c->fwd);
    free(c->arena);
    free(c->score);
}

static int ctx_init(Ctx *c, const Tables *t)
{
    int n = t->n;
    c->t = t;
    c->n = n;
    c->nw = t->nw;
    /* small per-hole arrays in one block */
    size_t bytes = (size_t)n                                    /* peg */
                   + (size_t)4 * n * 3                          /* link, cc[0], cc[1] */
                   + (size_t)n                                  /* is_block */
                   + (size_t)n;                                 /* cell */
    c->peg = calloc(bytes, 1);
    /* the layers: forward, backward, mine, theirs */
    c->fwd = malloc((size_t)(n + 2) * 4 * sizeof(BB));
    /* score (n), priors (n + 8); listed, moves, blocks, stack, path (n + 8 each),
     * placed (2 (n + 8)), placed_links (8 n + 8); seen (n); width_mine, width_theirs (n) */
    c->score = malloc((size_t)(2 * n + 8) * sizeof(double)
                      + (size_t)(7 * (n + 8) + 8 * n + 8 + 3 * n) * sizeof(int32_t)
                      + (size_t)(6 * (n + 1)) * sizeof(int32_t) + (size_t)n);
    /* the tree's block: untouched pages of a large allocation take no memory, so a search
     * uses only what its tree fills. A machine that will not promise the whole block (strict
     * overcommit, a small container) gets a bound halved until it does: the search prunes
     * sooner rather than fail; the smallest is the root and its moves, as core_search checks */
    size_t least = sizeof(Node) + ((size_t)n + 8) * sizeof(Edge);
    size_t arena = ((size_t)c->p.max_bytes + sizeof(Edge) - 1) / sizeof(Edge) * sizeof(Edge);
    c->arena = malloc(arena);
    while (!c->arena && arena / 2 >= least) {
        arena = arena / 2 / sizeof(Edge) * sizeof(Edge);
        c->arena = malloc(arena);
    }
    if (arena < (size_t)c->p.max_bytes)
        c->p.max_bytes = (long long)arena;
    c->nodes = (Node *)c->arena;
    c->edges_end = (Edge *)(c->arena + arena);
    if (!c->peg || !c->fwd || !c->score || !c->arena)
        return -1;
    c->link = c->peg + n;
    c->cc[0] = (uint8_t *)c->link + 4 * n;
    c->cc[1] = c->cc[0] + 4 * n;
    c->is_block = c->cc[1] + 4 * n;
    c->cell = c->is_block + n;
    memset(c->peg, NONE, (size_t)n);
    memset(c->link, NONE, (size_t)4 * n);
    c->bwd = c->fwd + (n + 2);
    c->mine.layers = c->bwd + (n + 2);
    c->theirs.layers = c->mine.layers + (n + 2);
    c->priors = c->score + n;
    c->listed = (int32_t *)(c->priors + n + 8);
    c->moves = c->listed + (n + 8);
    c->blocks = c->moves + (n + 8);
    c->stack = c->blocks + (n + 8);
    c->path = c->stack + (n + 8);
    c->placed = c->path + (n + 8);   /* 2 per depth */
    c->placed_links = c->placed + 2 * (n + 8);
    c->seen = (uint32_t *)(c->placed_links + 8 * n + 8);
    memset(c->seen, 0, (size_t)n * sizeof(uint32_t));
    c->width_mine = (int32_t *)(c->seen + n);
    c->width_theirs = c->width_mine + n;
    memset(c->width_mine, 0, (size_t)2 * n * sizeof(int32_t));
    c->chain_of = c->width_theirs + n;
    c->chain_first = c->chain_of + (n + 1);
    c->chain_low = c->chain_first + (n + 1);
    c->chain_high = c->chain_low + (n + 1);
    c->members = c->chain_high + (n + 1);
    c->ahead_marked = c->members + (n + 1);
    c->ahead = (uint8_t *)(c->ahead_marked + (n + 1));
    memset(c->ahead, 0, (size_t)n);
    c->stamp = 0;
    c->nn = c->ne = 0;
    for (int colour = 0; colour < 2; colour++)
        for (int k = 0; k < 8; k++)
            c->allow[colour][k] = t->steps[k];
    for (int k = 0; k < 8; k++)
        c->tallow[k] = t->tsteps[k];
    bb_zero(&c->tblack, MAXW);
    bb_zero(&c->tocc, MAXW);
    bb_zero(&c->pegs[0], MAXW);
    bb_zero(&c->pegs[1], MAXW);
    bb_zero(&c->occ, MAXW);
    return 0;
}

/* the position: per hole and per link id a colour, 255 for none */
static void load(Ctx *c, const unsigned char *pegs, const unsigned char *links)
{
    for (int h = 0; h < c->n; h++)
        if (pegs[h] < 2)
            put_peg(c, h, pegs[h]);
    for (int lid = 0; lid < 4 * c->n; lid++)
        if (links[lid] < 2)
            add_link(c, lid, links[lid]);
}

static PyObject *bitboard_bytes(const BB *bits, int nw)
{
    unsigned char out[MAXW * 8];
    for (int i = 0; i < nw; i++)
        for (int j = 0; j < 8; j++)
            out[i * 8 + j] = (unsigned char)(bits->w[i] >> (8 * j));
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)nw * 8);
}

/* evaluate.side for the tests: (distance, path layers, path) with bitboards as bytes */
static PyObject *core_side(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *tables_obj;
    const unsigned char *pegs, *links;
    Py_ssize_t pegs_len, links_len;
    int colour, paths, cap;
    if (!PyArg_ParseTuple(args, "O!y#y#ipi", &TablesType, &tables_obj, &pegs, &pegs_len, &links,
                          &links_len, &colour, &paths, &cap))
        return NULL;
    const Tables *t = (const Tables *)tables_obj;
    if (expect(pegs_len, t->n, "pegs") || expect(links_len, 4 * (Py_ssize_t)t->n, "links"))
        return NULL;
    if (colour != 0 && colour != 1) {
        PyErr_SetString(PyExc_ValueError, "colour is 0 or 1");
        return NULL;
    }
    Ctx c;
    memset(&c, 0, sizeof c);
    c.p.unreachable = 1000;
    if (ctx_init(&c, t) < 0) {
        ctx_free(&c);
        return PyErr_NoMemory();
    }
    load(&c, pegs, links);
    side(&c, colour, paths, cap, &c.mine);
    PyObject *layers = PyList_New(c.mine.nlayers), *result = NULL;
    for (int k = 0; layers != NULL && k < c.mine.nlayers; k++) {
        PyObject *layer = bitboard_bytes(&c.mine.layers[k], c.nw);
        if (layer == NULL) {
            Py_CLEAR(layers);
            break;
        }
        PyList_SET_ITEM(layers, k, layer);
    }
    if (layers != NULL)
        result = Py_BuildValue("(iON)", c.mine.distance, layers, bitboard_bytes(&c.mine.path, c.nw));
    Py_XDECREF(layers);
    ctx_free(&c);
    return result;
}

static PyObject *core_search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *tables_obj, *rng_obj;
    const unsigned char *pegs, *links;
    Py_ssize_t pegs_len, links_len;
    const unsigned char *table, *areas;
    Py_ssize_t table_len, areas_len;
    const char *root_scores;
    Py_ssize_t root_scores_len;
    int to_move, root_last, root_own_last, table_size, steps_near, cut_levels, deny_levels,
        area_count;
    long long budget;
    double seconds;
    Params p;
    Priors w;
    if (!PyArg_ParseTuple(args, "O!y#y#(ii)iLdO(dddddddiiiiL)y#(iiiii(iiiiiiiiiiiiii)(iiiiiii)iiiy#)z#",
                          &TablesType, &tables_obj, &pegs, &pegs_len, &links, &links_len,
                          &root_last, &root_own_last, &to_move, &budget, &seconds, &rng_obj,
                          &p.c_puct, &p.fpu, &p.narrow, &p.weak, &p.sharpness, &p.tempo,
                          &p.noise, &p.width, &p.root_width, &p.unreachable, &p.pv_length,
                          &p.max_bytes, &table, &table_len, &w.far, &table_size, &steps_near,
                          &w.ahead, &w.aside,
                          &w.offsets[0], &w.offsets[1], &w.offsets[2], &w.offsets[3],
                          &w.offsets[4], &w.offsets[5], &w.offsets[6], &w.offsets[7],
                          &w.offsets[8], &w.offsets[9], &w.offsets[10], &w.offsets[11],
                          &w.offsets[12], &w.offsets[13], &w.widths[0], &w.widths[1],
                          &w.widths[2], &w.widths[3], &w.widths[4], &w.widths[5],
                          &w.widths[6], &cut_levels, &deny_levels, &area_count, &areas,
                          &areas_len, &root_scores, &root_scores_len))
        return NULL;
    const Tables *t = (const Tables *)tables_obj;
    if (expect(pegs_len, t->n, "pegs") || expect(links_len, 4 * (Py_ssize_t)t->n, "links")
        || expect(table_len, (Py_ssize_t)table_size * 8, "priors' table")
        || (root_scores != NULL && expect(root_scores_len, (Py_ssize_t)t->n * 8, "root scores")))
        return NULL;
    /* the highest level of each feature must lie in the table */
    int signed_levels = 2 * w.far + 1;
    const int top_level[FEATURES] = {390624, 65535, 65535, signed_levels * signed_levels,
                                     signed_levels * signed_levels,
                                     (STEPS_NEAR + 1) * (STEPS_NEAR + 1) - 1, CHAIN_LEVELS - 1,
                                     2 * w.ahead * (w.aside + 1), (w.far + 1) * (w.far + 1) - 1,
                                     WIDTH_BOUNDS + 1, WIDTH_BOUNDS + 1, AREAS, CUTS, DENIES};
    for (int f = 0; f < FEATURES; f++)
        if (w.far < 0 || steps_near != STEPS_NEAR || cut_levels != CUTS
            || deny_levels != DENIES || area_count != AREAS || w.ahead < 1 || w.ahead > 48 || w.aside < 0
            || 2 * w.ahead * (w.aside + 1) > 255 || w.offsets[f] < 0
            || w.offsets[f] + top_level[f] >= table_size) {
            PyErr_SetString(PyExc_ValueError, "a feature's levels lie outside the table");
            return NULL;
        }
    if (root_last < -1 || root_last >= t->n || root_own_last < -1 || root_own_last >= t->n) {
        PyErr_SetString(PyExc_ValueError, "the last pegs are holes of the board or -1");
        return NULL;
    }
    w.table = (const double *)table;
    /* the area hash: a power of two of slots, keys then levels, the levels within the table
     * and at least one empty slot (a probe ends there) */
    Py_ssize_t slots = areas_len / 16, empty = 0;
    int valid = slots >= 2 && (slots & (slots - 1)) == 0 && areas_len == slots * 16;
    w.area_keys = (const int64_t *)areas;
    w.area_levels = w.area_keys + slots;
    w.area_mask = (uint64_t)slots - 1;
    w.area_shift = 64;
    for (Py_ssize_t s = slots; s > 1; s >>= 1)
        w.area_shift--;
    for (Py_ssize_t i = 0; valid && i < slots; i++) {
        empty += w.area_keys[i] < 0;
        valid = w.area_levels[i] >= 0 && w.area_levels[i] <= AREAS;
    }
    if (!valid || !empty) {
        PyErr_SetString(PyExc_ValueError, "the area slots are a power of two (at least 2), "
                        "keys then levels within the table, one empty at least");
        return NULL;
    }
    if ((to_move != 0 && to_move != 1) || budget < 1 || p.width < 1 || p.root_width < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "to_move is 0 or 1, the budget and the widths at least 1");
        return NULL;
    }
    /* Search._check_bound: room for the root and its moves, and kids' indices in 32 bits */
    if (p.max_bytes < (long long)(sizeof(Node) + ((size_t)t->n + 8) * sizeof(Edge))
        || p.max_bytes > (long long)sizeof(Node) * INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "max_bytes holds the root and its moves, "
                        "and at most 2**31 - 1 nodes");
        return NULL;
    }
    PyObject *rng = PySequence_Fast(rng_obj, "rng_values must be a sequence");
    if (rng == NULL)
        return NULL;
    Py_ssize_t rng_count = PySequence_Fast_GET_SIZE(rng);
    double *values = PyMem_Malloc(sizeof(double) * (size_t)(rng_count ? rng_count : 1));
    if (values == NULL) {
        Py_DECREF(rng);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < rng_count; i++)
        values[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(rng, i));
    Py_DECREF(rng);
    if (PyErr_Occurred() || (p.noise != 0.0 && !rng_count)) {
        PyMem_Free(values);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "noise needs rng_values");
        return NULL;
    }
    Ctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.w = w;
    c.root_last = root_last;
    c.root_own_last = root_own_last;
    c.root_scores = (const double *)root_scores;
    c.rng_values = values;
    c.rng_count = rng_count;
    if (ctx_init(&c, t) < 0) {
        ctx_free(&c);
        PyMem_Free(values);
        return PyErr_NoMemory();
    }
    load(&c, pegs, links);
    double root_eval = 0.5;
    long nodes = run(&c, to_move, (long)budget, seconds, &root_eval);
    PyMem_Free(values);
    if (nodes < 0) {
        ctx_free(&c);
        return NULL;
    }
    /* (nodes, root value, terminal or None, moves, priors, visits, values, lines, prunes,
     * the largest tree a prune left) */
    const Node *root = &c.nodes[0];
    int count = root->count;
    PyObject *moves = PyList_New(count), *priors = PyList_New(count),
             *visits = PyList_New(count), *sums = PyList_New(count), *lines = PyList_New(count);
    PyObject *result = NULL;
    if (!moves || !priors || !visits || !sums || !lines)
        goto done;
    for (int i = 0; i < count; i++) {
        const Edge *e = edge_at(&c, root->first + i);
        const Node *kid = e->kid >= 0 ? &c.nodes[e->kid] : NULL;
        PyObject *line = PyList_New(0);
        if (line == NULL)
            goto done;
        PyList_SET_ITEM(lines, i, line);
        PyList_SET_ITEM(moves, i, PyLong_FromLong(e->move));
        PyList_SET_ITEM(priors, i, PyFloat_FromDouble(e->prior));
        PyList_SET_ITEM(visits, i, PyLong_FromLong(kid ? kid->visits : 0));
        PyList_SET_ITEM(sums, i, PyFloat_FromDouble(kid ? kid->value : 0.0));
        /* Search._line: the expected line after this move, pv_length - 1 moves at most */
        const Node *node = kid;
        while (node != NULL && node->visits && PyList_GET_SIZE(line) < p.pv_length - 1) {
            int j = best_child(&c, node);
            if (j < 0)
                break;
            const Edge *next = edge_at(&c, node->first + j);
            PyObject *move = PyLong_FromLong(next->move);
            if (move == NULL || PyList_Append(line, move) < 0) {
                Py_XDECREF(move);
                goto done;
            }
            Py_DECREF(move);
            node = next->kid >= 0 ? &c.nodes[next->kid] : NULL;
        }
    }
    if (PyErr_Occurred())
        goto done;
    PyObject *terminal = root->decided ? PyFloat_FromDouble(root->terminal) : Py_NewRef(Py_None);
    if (terminal != NULL) {
        result = Py_BuildValue("(ldOOOOOOlL)", nodes, root_eval, terminal, moves, priors,
                               visits, sums, lines, c.prunes, c.kept_bytes);
        Py_DECREF(terminal);
    }
done:
    Py_XDECREF(moves);
    Py_XDECREF(priors);
    Py_XDECREF(visits);
    Py_XDECREF(sums);
    Py_XDECREF(lines);
    ctx_free(&c);
    return result;
}

static PyMethodDef core_methods[] = {
    {"tables", core_tables, METH_VARARGS,
     "tables(cols, rows, classic, masks, shifts, neighbours, link_ends, crossings, frames)"
     " -> Tables"},
    {"search", core_search, METH_VARARGS,
     "search(tables, pegs, links, (last, own_last), to_move, nodes, seconds, rng_values, params,"
     " priors, prior_params) -> result"},
    {"side", core_side, METH_VARARGS,
     "side(tables, pegs, links, colour, paths, cap) -> (distance, path layers, path)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "engine._core",
    "The engine's search compiled (see twixt/engine/core.py, which prepares its tables).", -1,
    core_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&TablesType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddIntConstant(module, "NODE_BYTES", (long)sizeof(Node)) < 0
        || PyModule_AddIntConstant(module, "EDGE_BYTES", (long)sizeof(Edge)) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(module, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
