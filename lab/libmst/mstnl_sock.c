// SPDX-License-Identifier: MIT
/*
 * mstnl socket layer: the only part that touches the kernel. Each call
 * builds its request with mstnl_build_*(), sends it, and feeds every
 * received datagram to mstnl_parse_reply() until the answer is complete.
 */
#include "mstnl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

/* Dumps arrive in datagrams of at most 32 KiB (netlink's dump limit). */
#define MSTNL_RX_SIZE	(64 * 1024)
/* A kernel that does not answer within this is a bug; never hang. */
#define MSTNL_TIMEOUT_S	10

struct mstnl {
	struct mnl_socket *sock;
	uint32_t seq;
	uint8_t rx[MSTNL_RX_SIZE];
};

static void err_reset(struct mstnl_err *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

static int err_local(struct mstnl_err *err, int code, const char *msg)
{
	if (err) {
		err->code = code;
		err->kernel = false;
		if (msg && !err->msg[0])
			snprintf(err->msg, sizeof(err->msg), "%s", msg);
	}
	return code;
}

static struct mstnl *open_socket(int *errp)
{
	struct timeval tv = { .tv_sec = MSTNL_TIMEOUT_S };
	struct mstnl *nl;
	int one = 1;
	int e;

	nl = calloc(1, sizeof(*nl));
	if (!nl) {
		e = -ENOMEM;
		goto fail;
	}
	nl->sock = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl->sock) {
		e = -errno;
		goto fail;
	}
	/* extended acks carry the kernel's reason; capped acks keep them small */
	if (mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one,
				  sizeof(one)) < 0 ||
	    mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one,
				  sizeof(one)) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVTIMEO,
		       &tv, sizeof(tv)) < 0 ||
	    mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		e = -errno;
		goto fail;
	}
	nl->seq = (uint32_t)time(NULL);
	return nl;
fail:
	mstnl_close(nl);
	if (errp)
		*errp = e;
	return NULL;
}

struct mstnl *mstnl_open(int *errp)
{
	return open_socket(errp);
}

void mstnl_close(struct mstnl *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl);
}

int mstnl_fd(const struct mstnl *nl)
{
	return mnl_socket_get_fd(nl->sock);
}

/* Whether a datagram holds the end (NLMSG_DONE or an ack) of answer @seq. */
static bool has_end(const void *buf, size_t len, uint32_t seq)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len;

	while (rem >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (unsigned int)rem) {
		if (nlh->nlmsg_seq == seq && (nlh->nlmsg_type == NLMSG_DONE ||
					      nlh->nlmsg_type == NLMSG_ERROR))
			return true;
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	return false;
}

/*
 * After giving up on a dump half-way, reads the rest of it, so that the
 * next request does not find stale parts of this one.
 */
static void drain(struct mstnl *nl, uint32_t seq)
{
	ssize_t n;

	do {
		n = mnl_socket_recvfrom(nl->sock, nl->rx, sizeof(nl->rx));
	} while ((n > 0 && !has_end(nl->rx, (size_t)n, seq)) ||
		 (n < 0 && errno == EINTR));
}

/* Sends @len bytes of @req (built with seq nl->seq) and collects the answer. */
static int talk(struct mstnl *nl, const void *req, size_t len,
		mstnl_msg_cb cb, void *data, struct mstnl_err *err)
{
	const struct nlmsghdr *nlh = req;
	ssize_t n = 0;
	int ret = 1;

	if (mnl_socket_sendto(nl->sock, req, len) < 0)
		return err_local(err, -errno, "cannot send netlink request");
	do {
		n = mnl_socket_recvfrom(nl->sock, nl->rx, sizeof(nl->rx));
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return err_local(err, -ETIMEDOUT,
						 "no answer from the kernel");
			if (errno == EINTR)
				continue;
			return err_local(err, -errno,
					 "cannot receive netlink answer");
		}
		ret = mstnl_parse_reply(nl->rx, (size_t)n, nlh->nlmsg_seq, cb,
					data, err);
	} while (ret == 1);
	if (ret < 0 && n > 0 &&
	    (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP &&
	    !has_end(nl->rx, (size_t)n, nlh->nlmsg_seq))
		drain(nl, nlh->nlmsg_seq);
	if (ret < 0 && err && !err->code)
		err->code = ret;
	return ret;
}

/*
 * The one request/ack exchange: @len is what a builder returned for the
 * request at @req (its length, or -errno), sent and answered by talk().
 */
static int request(struct mstnl *nl, const void *req, int len,
		   mstnl_msg_cb cb, void *data, struct mstnl_err *err)
{
	err_reset(err);
	if (len < 0)
		return err_local(err, len, "invalid request");
	return talk(nl, req, (size_t)len, cb, data, err);
}

int mstnl_mst_set(struct mstnl *nl, int br_ifindex, bool on,
		  struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_mst_set(req, sizeof(req),
						    ++nl->seq, br_ifindex, on),
		       NULL, NULL, err);
}

int mstnl_ageing_set(struct mstnl *nl, int br_ifindex, uint32_t cs,
		     struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_ageing_set(req, sizeof(req),
						       ++nl->seq, br_ifindex,
						       cs),
		       NULL, NULL, err);
}

struct link_get {
	struct mstnl_link *link;
	bool seen;
};

static int link_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_get *lg = data;
	int ret;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	ret = mstnl_parse_link(nlh, lg->link);
	if (ret == 0)
		lg->seen = true;
	return ret;
}

int mstnl_link_get(struct mstnl *nl, int ifindex, struct mstnl_link *link,
		   struct mstnl_err *err)
{
	struct link_get lg = { link, false };
	uint8_t req[MSTNL_REQ_SIZE];
	int ret;

	ret = request(nl, req, mstnl_build_link_get(req, sizeof(req),
						    ++nl->seq, ifindex),
		      link_get_cb, &lg, err);
	if (ret == 0 && !lg.seen)
		return err_local(err, -EBADMSG, "no link in the kernel's answer");
	return ret;
}

int mstnl_vlan_msti_set(struct mstnl *nl, int br_ifindex, uint16_t vid,
			uint16_t vid_end, uint16_t msti, struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_vlan_msti_set(req, sizeof(req),
							  ++nl->seq, br_ifindex,
							  vid, vid_end, msti),
		       NULL, NULL, err);
}

struct vlan_get {
	int br;
	struct mstnl_vid_map *map;
};

static int vlan_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct vlan_get *vg = data;

	if (nlh->nlmsg_type != RTM_NEWVLAN)
		return 0;
	return mstnl_parse_vlan_global(nlh, vg->br, vg->map);
}

int mstnl_vlan_msti_get(struct mstnl *nl, int br_ifindex,
			struct mstnl_vid_map *map, struct mstnl_err *err)
{
	struct vlan_get vg = { br_ifindex, map };
	uint8_t req[MSTNL_REQ_SIZE];

	memset(map, 0, sizeof(*map));
	return request(nl, req, mstnl_build_vlan_dump(req, sizeof(req),
						      ++nl->seq, br_ifindex),
		       vlan_get_cb, &vg, err);
}

int mstnl_port_msti_set(struct mstnl *nl, int port_ifindex,
			const struct mstnl_msti_state *entries, size_t n,
			struct mstnl_err *err)
{
	size_t size = MSTNL_REQ_SIZE + n * MSTNL_MSTI_ENTRY_SIZE;
	uint8_t *req;
	int ret;

	err_reset(err);
	if (n > MSTNL_MSTI_MAX)
		return err_local(err, -EINVAL, "too many MSTI entries");
	req = malloc(size);
	if (!req)
		return err_local(err, -ENOMEM, NULL);
	ret = request(nl, req, mstnl_build_port_msti_set(req, size, ++nl->seq,
							 port_ifindex, entries,
							 n),
		      NULL, NULL, err);
	free(req);
	return ret;
}

struct port_dump {
	int (*cb)(const struct mstnl_port *port, void *data);
	void *data;
	struct mstnl_port port;
};

static int port_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct port_dump *pd = data;
	int ret;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	ret = mstnl_parse_port(nlh, &pd->port);
	if (ret < 0)
		return ret;
	return pd->cb(&pd->port, pd->data) < 0 ? -ECANCELED : 0;
}

int mstnl_port_dump(struct mstnl *nl,
		    int (*cb)(const struct mstnl_port *port, void *data),
		    void *data, struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];
	struct port_dump *pd;
	int ret;

	err_reset(err);
	pd = malloc(sizeof(*pd));
	if (!pd)
		return err_local(err, -ENOMEM, NULL);
	pd->cb = cb;
	pd->data = data;
	ret = request(nl, req, mstnl_build_port_dump(req, sizeof(req),
						     ++nl->seq),
		      port_dump_cb, pd, err);
	free(pd);
	return ret;
}

int mstnl_port_state_set(struct mstnl *nl, int port_ifindex, uint8_t state,
			 struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_port_state_set(req, sizeof(req),
							   ++nl->seq,
							   port_ifindex, state),
		       NULL, NULL, err);
}

int mstnl_fdb_flush(struct mstnl *nl, int port_ifindex, uint16_t vid,
		    struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_fdb_flush(req, sizeof(req),
						      ++nl->seq, port_ifindex,
						      vid),
		       NULL, NULL, err);
}

int mstnl_port_set(struct mstnl *nl, int port_ifindex,
		   const struct mstnl_port_conf *conf, struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_port_set(req, sizeof(req),
						     ++nl->seq, port_ifindex,
						     conf),
		       NULL, NULL, err);
}

int mstnl_bridge_new(struct mstnl *nl, const char *name,
		     const struct mstnl_bridge_conf *conf,
		     struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_bridge_new(req, sizeof(req),
						       ++nl->seq, name, conf),
		       NULL, NULL, err);
}

int mstnl_link_del(struct mstnl *nl, const char *name, struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_link_del(req, sizeof(req),
						     ++nl->seq, name),
		       NULL, NULL, err);
}

int mstnl_link_alias_set(struct mstnl *nl, const char *name,
			 const char *alias, struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE + MSTNL_ALIAS_MAX];

	return request(nl, req, mstnl_build_link_alias_set(req, sizeof(req),
							   ++nl->seq, name,
							   alias),
		       NULL, NULL, err);
}

int mstnl_link_carrier_set(struct mstnl *nl, const char *name, bool on,
			   struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_link_carrier_set(req, sizeof(req),
							     ++nl->seq, name,
							     on),
		       NULL, NULL, err);
}

int mstnl_vxlan_new(struct mstnl *nl, const char *name,
		    const struct mstnl_vxlan_conf *conf, struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];

	return request(nl, req, mstnl_build_vxlan_new(req, sizeof(req),
						      ++nl->seq, name, conf),
		       NULL, NULL, err);
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	int r = mstnl_parse_route_oif(nlh, data);

	return r == -EPROTO ? 0 : r;
}

int mstnl_route_oif(struct mstnl *nl, int family, const void *addr, int *oif,
		    struct mstnl_err *err)
{
	uint8_t req[MSTNL_REQ_SIZE];
	int ret;

	*oif = 0;
	ret = request(nl, req, mstnl_build_route_get(req, sizeof(req),
						     ++nl->seq, family, addr),
		      route_cb, oif, err);
	if (ret == 0 && *oif <= 0)
		return err_local(err, -ENOENT, "no route with an interface");
	return ret;
}

struct mstnl *mstnl_open_monitor(unsigned int groups, int *errp)
{
	static const struct {
		unsigned int flag;
		int group;
	} map[] = {
		{ MSTNL_GRP_LINK, RTNLGRP_LINK },
		{ MSTNL_GRP_VLAN, RTNLGRP_BRVLAN },
		{ MSTNL_GRP_FDB, RTNLGRP_NEIGH },
	};
	struct mstnl *nl = open_socket(errp);
	struct timeval tv = { 0 };

	if (!nl)
		return NULL;
	/* RTNLGRP_BRVLAN is above 32: only the setsockopt form reaches it */
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (!(groups & map[i].flag))
			continue;
		int group = map[i].group;

		if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP,
					  &group, sizeof(group)) < 0) {
			if (errp)
				*errp = -errno;
			mstnl_close(nl);
			return NULL;
		}
	}
	/* a monitor waits for as long as it takes */
	setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	return nl;
}

int mstnl_monitor_read(struct mstnl *nl, mstnl_event_cb cb, void *data)
{
	ssize_t n;

	n = mnl_socket_recvfrom(nl->sock, nl->rx, sizeof(nl->rx));
	if (n < 0)
		return -errno;
	return mstnl_parse_events(nl->rx, (size_t)n, cb, data);
}

/* Builds one part of a batch at @buf; its length or -errno. */
static int build_part(uint8_t *buf, size_t size, uint32_t seq,
		      const struct mstnl_port_states *r, bool cist)
{
	size_t need = MSTNL_REQ_SIZE + r->nmstis * MSTNL_MSTI_ENTRY_SIZE;

	if (size > need)
		size = need;	/* the builders clear what they are given */
	if (cist)
		return mstnl_build_port_state_set(buf, size, seq, r->ifindex,
						  r->cist);
	return mstnl_build_port_msti_set(buf, size, seq, r->ifindex, r->mstis,
					 r->nmstis);
}

/* Reads acks until every one of the batch's @n parts has its own. */
static int collect_acks(struct mstnl *nl, uint32_t seq, size_t n,
			struct mstnl_err *errs, bool *done)
{
	size_t left = n;

	while (left) {
		ssize_t len = mnl_socket_recvfrom(nl->sock, nl->rx,
						  sizeof(nl->rx));
		int r;

		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ?
				-ETIMEDOUT : -errno;
		r = mstnl_parse_acks(nl->rx, (size_t)len, seq, n, errs, done);
		if (r < 0)
			return r;
		left -= (size_t)r;
	}
	return 0;
}

int mstnl_port_states_set(struct mstnl *nl, struct mstnl_port_states *reqs,
			  size_t n)
{
	size_t nparts = 0, size = 0, off = 0;
	struct mstnl_err **out, *errs;
	uint32_t seq = nl->seq + 1;
	uint8_t *buf;
	bool *done;
	size_t k = 0;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		err_reset(&reqs[i].cist_err);
		err_reset(&reqs[i].msti_err);
		if (reqs[i].nmstis > MSTNL_MSTI_MAX)
			return err_local(&reqs[i].msti_err, -EINVAL,
					 "too many MSTI entries");
		nparts += (reqs[i].cist != MSTNL_STATE_NONE) +
			  (reqs[i].nmstis > 0);
		size += 2 * MSTNL_REQ_SIZE +
			reqs[i].nmstis * MSTNL_MSTI_ENTRY_SIZE;
	}
	if (nparts == 0)
		return 0;
	buf = malloc(size);
	out = calloc(nparts, sizeof(*out));
	errs = calloc(nparts, sizeof(*errs));
	done = calloc(nparts, sizeof(*done));
	if (!buf || !out || !errs || !done) {
		ret = err_local(&reqs[0].cist_err, -ENOMEM, NULL);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		for (int part = 0; part < 2; part++) {
			struct mstnl_port_states *r = &reqs[i];
			bool cist = part == 0;
			int len;

			if (cist ? r->cist == MSTNL_STATE_NONE : !r->nmstis)
				continue;
			out[k] = cist ? &r->cist_err : &r->msti_err;
			len = build_part(buf + off, size - off, seq + (uint32_t)k,
					 r, cist);
			if (len < 0) {
				ret = err_local(out[k], len, "invalid request");
				goto out;
			}
			off += NLMSG_ALIGN((size_t)len);
			k++;
		}
	}
	nl->seq += (uint32_t)nparts;
	if (mnl_socket_sendto(nl->sock, buf, off) < 0)
		ret = -errno;
	else
		ret = collect_acks(nl, seq, nparts, errs, done);
	for (k = 0; k < nparts; k++) {
		if (!done[k])
			err_local(&errs[k], ret ? ret : -EPROTO,
				  "no answer from the kernel");
		*out[k] = errs[k];
		if (errs[k].code && !ret)
			ret = errs[k].code;
	}
out:
	free(buf);
	free(out);
	free(errs);
	free(done);
	return ret;
}
