// SPDX-License-Identifier: MIT
#include "pcapread.h"

#include <pcap/pcap.h>
#include <stdio.h>

int pcapread_file(const char *path, pcapread_frame_cb cb, void *ctx,
		  struct errbuf *err)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int rc;

	p = pcap_open_offline_with_tstamp_precision(path,
						    PCAP_TSTAMP_PRECISION_NANO,
						    perr);
	if (!p) {
		errbuf_set(err, "%s: %s", path, perr);
		return -1;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		errbuf_set(err, "%s: not an Ethernet capture (link "
			   "type %s)", path,
			   pcap_datalink_val_to_name(pcap_datalink(p)) ?: "?");
		pcap_close(p);
		return -1;
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		int64_t ts = (int64_t)h->ts.tv_sec * 1000000000LL +
			     h->ts.tv_usec;	/* ns: nano precision */

		if (cb(ctx, ts, data, h->caplen))
			break;
	}
	if (rc == -1) {
		/* A capture cut short (mstlab killed) still counts up to the
		 * last whole frame: report, not fail. */
		errbuf_set(err, "%s: %s", path, pcap_geterr(p));
		pcap_close(p);
		return -1;
	}
	pcap_close(p);
	return 0;
}

long pcapread_drops(const char *path)
{
	char log[4200], line[256];
	long drops = -1, n;
	FILE *f;

	snprintf(log, sizeof(log), "%s.log", path);
	f = fopen(log, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%ld packets dropped by kernel", &n) == 1)
			drops = n;
	fclose(f);
	return drops;
}
