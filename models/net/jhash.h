/* jhash.h — Bob Jenkins' lookup3 hash as include/linux/jhash.h uses it (kernel-spec §1.2.2).
 *
 * Bit-exact with the kernel (v4.1+ initial values), so the model's bucket indices are the
 * kernel's for the same inputs and secrets. Written from the public-domain lookup3
 * description: initial value 0xdeadbeef + 4 * n + iv, the 6-step mix and the 7-step final. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define JHASH_INITVAL 0xdeadbeefu

static inline guint32
rol32 (guint32 word, guint shift)
{
  return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

/* lookup3 mix(a, b, c): six steps x -= z; x ^= rol32(z, r); z += y. */
#define __jhash_mix(a, b, c)                    \
  do {                                          \
    a -= c; a ^= rol32 (c, 4);  c += b;         \
    b -= a; b ^= rol32 (a, 6);  a += c;         \
    c -= b; c ^= rol32 (b, 8);  b += a;         \
    a -= c; a ^= rol32 (c, 16); c += b;         \
    b -= a; b ^= rol32 (a, 19); a += c;         \
    c -= b; c ^= rol32 (b, 4);  b += a;         \
  } while (0)

/* lookup3 final(a, b, c): seven steps x ^= y; x -= rol32(y, r). */
#define __jhash_final(a, b, c)                  \
  do {                                          \
    c ^= b; c -= rol32 (b, 14);                 \
    a ^= c; a -= rol32 (c, 11);                 \
    b ^= a; b -= rol32 (a, 25);                 \
    c ^= b; c -= rol32 (b, 16);                 \
    a ^= c; a -= rol32 (c, 4);                  \
    b ^= a; b -= rol32 (a, 14);                 \
    c ^= b; c -= rol32 (b, 24);                 \
  } while (0)

/* jhash2: hash n 32-bit words with initial value iv. */
static inline guint32
jhash2 (const guint32 *k, guint32 length, guint32 initval)
{
  guint32 a, b, c;

  a = b = c = JHASH_INITVAL + (length << 2) + initval;
  while (length > 3) {
    a += k[0];
    b += k[1];
    c += k[2];
    __jhash_mix (a, b, c);
    length -= 3;
    k += 3;
  }
  switch (length) {
  case 3: c += k[2]; /* fall through */
  case 2: b += k[1]; /* fall through */
  case 1: a += k[0];
    __jhash_final (a, b, c);
    break;
  case 0:
    break;
  }
  return c;
}

/* __jhash_nwords: a, b, c preset with initval and final-mixed (jhash_3words and friends). */
static inline guint32
__jhash_nwords (guint32 a, guint32 b, guint32 c, guint32 initval)
{
  a += initval;
  b += initval;
  c += initval;
  __jhash_final (a, b, c);
  return c;
}

static inline guint32
jhash_3words (guint32 a, guint32 b, guint32 c, guint32 initval)
{
  return __jhash_nwords (a, b, c, initval + JHASH_INITVAL + (3 << 2));
}

static inline guint32
jhash_2words (guint32 a, guint32 b, guint32 initval)
{
  return __jhash_nwords (a, b, 0, initval + JHASH_INITVAL + (2 << 2));
}

static inline guint32
jhash_1word (guint32 a, guint32 initval)
{
  return __jhash_nwords (a, 0, 0, initval + JHASH_INITVAL + (1 << 2));
}

/* Estimate: jhash_Nwords is the 7-step final (21 ALU ops) plus 3–6 adds ≈ 27 instructions;
 * jhash2 of 4 words adds one 18-op mix and the loads ≈ 50 (kernel-spec §1.2.2: "about 20–30
 * ALU ops for the 3-word form"). */
#define JHASH_NWORDS_INSNS  27
#define JHASH2_4W_INSNS     50

G_END_DECLS
