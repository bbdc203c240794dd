// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the share and rate policy of the wells.
 *
 * Rate: a user's readers receive at most user_rate bits per second, from
 * every well together. Each user has one fd_rate; what its readers
 * received is charged after the fact (fd_rate_charge()), a reader asks for
 * no more than fd_rate_allow() before it waits in a well, and one with
 * nothing allowed waits fd_rate_wait() first, holding no place in any
 * queue. Over any interval of T seconds a user receives at most
 * rate * (T + FD_RATE_BURST_NS) bits, plus one take of at most 64 bits
 * beyond its allowance.
 */

#include "fd_share.h"

#define FD_NS_PER_S	1000000000ULL
/* A cost is capped here: far above any wait, far below an overflow. */
#define FD_RATE_MAX_NS	BIT_ULL(62)

/* @bits at @rate bits per second, in ns, rounded up and capped. */
static u64 fd_rate_ns(u64 rate, u64 bits)
{
	u64 rem;
	fd_u128 q = fd_div128((fd_u128)bits * FD_NS_PER_S + (rate - 1), rate,
			      &rem);

	return q > FD_RATE_MAX_NS ? FD_RATE_MAX_NS : (u64)q;
}

/**
 * fd_rate_allow() - how many bits a user may receive now
 * @r: the user's rate state
 * @rate: the cap, bits per second; 0 for none
 * @now: the time, in ns
 *
 * Return: the bits, at most ~0U (also when there is no cap).
 */
u32 fd_rate_allow(const struct fd_rate *r, u64 rate, u64 now)
{
	u64 tat = r->tat > now ? r->tat : now, slack, rem;
	fd_u128 bits;

	if (!rate)
		return ~0U;
	if (tat - now >= FD_RATE_BURST_NS)
		return 0;
	slack = now + FD_RATE_BURST_NS - tat;
	bits = fd_div128((fd_u128)slack * rate, FD_NS_PER_S, &rem);
	return bits > ~0U ? ~0U : (u32)bits;
}

/**
 * fd_rate_wait() - how long a user waits before it may receive @bits
 * @r: the user's rate state
 * @rate: the cap, bits per second; 0 for none
 * @bits: what it wants at least; a want above what FD_RATE_BURST_NS
 *	allows waits only for that
 * @now: the time, in ns
 *
 * Return: ns to wait, 0 when it may go on now.
 */
u64 fd_rate_wait(const struct fd_rate *r, u64 rate, u32 bits, u64 now)
{
	u64 need, ready;

	if (!rate)
		return 0;
	need = fd_rate_ns(rate, bits);
	if (need > FD_RATE_BURST_NS)
		need = FD_RATE_BURST_NS;
	/* Ready once tat + need <= now + burst. */
	ready = r->tat + need;
	return ready > now + FD_RATE_BURST_NS ?
	       ready - now - FD_RATE_BURST_NS : 0;
}

/**
 * fd_rate_charge() - a user's readers received @bits
 * @r: the user's rate state
 * @rate: the cap, bits per second; 0 for none
 * @bits: what they received
 * @now: the time, in ns
 *
 * Time the user did not use is not saved beyond FD_RATE_BURST_NS.
 */
void fd_rate_charge(struct fd_rate *r, u64 rate, u64 bits, u64 now)
{
	u64 tat = r->tat > now ? r->tat : now;

	if (!rate || !bits)
		return;
	tat += fd_rate_ns(rate, bits);
	/* Never further ahead than a capped cost: no wrap, ever. */
	if (tat - now > FD_RATE_MAX_NS)
		tat = now + FD_RATE_MAX_NS;
	r->tat = tat;
}

/* ---------------------------------------------------------------------
 * The heap: a randomized meldable heap (Gambin and Malinowski). Two heaps
 * meld by walking down from the smaller root, one random side at a time:
 * the expected walk is O(log n) whatever the keys, since the coin is
 * independent of them. Removing any node melds its two children into its
 * place, which keeps the order (both are after it, it was after its parent).
 */

static bool fd_heap_less(const struct fd_heap_node *a,
			 const struct fd_heap_node *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static bool fd_heap_coin(struct fd_heap *h)
{
	u32 x = h->rnd ? h->rnd : 0x9e3779b9;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	h->rnd = x;
	return x & 1;
}

static struct fd_heap_node *fd_heap_meld(struct fd_heap *h,
					 struct fd_heap_node *a,
					 struct fd_heap_node *b,
					 struct fd_heap_node *parent)
{
	struct fd_heap_node *root = NULL, **link = &root, *t;

	while (a && b) {
		if (fd_heap_less(b, a)) {
			t = a;
			a = b;
			b = t;
		}
		*link = a;
		a->parent = parent;
		parent = a;
		if (fd_heap_coin(h)) {
			link = &a->left;
			a = a->left;
		} else {
			link = &a->right;
			a = a->right;
		}
	}
	if (!a)
		a = b;
	*link = a;
	if (a)
		a->parent = parent;
	return root;
}

/**
 * fd_heap_insert() - a node into a heap
 * @h: the heap
 * @x: the node, in no heap, its @key and @seq set
 */
void fd_heap_insert(struct fd_heap *h, struct fd_heap_node *x)
{
	x->left = NULL;
	x->right = NULL;
	h->root = fd_heap_meld(h, h->root, x, NULL);
}

/**
 * fd_heap_remove() - a node out of its heap
 * @h: the heap
 * @x: the node, in @h
 */
void fd_heap_remove(struct fd_heap *h, struct fd_heap_node *x)
{
	struct fd_heap_node *p = x->parent;
	struct fd_heap_node *m = fd_heap_meld(h, x->left, x->right, p);

	if (!p)
		h->root = m;
	else if (p->left == x)
		p->left = m;
	else
		p->right = m;
	x->left = NULL;
	x->right = NULL;
	x->parent = NULL;
}
