// SPDX-License-Identifier: MIT
#include "lab_provenance.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "version.h"

void lab_provenance(const struct lab *l, struct provenance *pv)
{
	char here[256] = "", image[BUILD_ID_LEN] = "";

	memset(pv, 0, sizeof(*pv));
	snprintf(pv->mstlab, sizeof(pv->mstlab), "%s", mstlab_version);
	if (gethostname(here, sizeof(here) - 1))
		here[0] = '\0';
	/* Read once: every node of this host boots the same image. */
	if (l->pp.initrd && build_id_file(l->pp.initrd, image, sizeof(image)))
		image[0] = '\0';
	for (size_t i = 0; i < l->t->n_nodes; i++) {
		const struct topo_node *tn = &l->t->nodes[i];
		const struct topo_host *h = &l->t->hosts[tn->host];
		bool local = tn->host == TOPO_LOCAL_HOST;
		const struct plan_params *pp = local ? &l->pp :
						       &l->hpp[tn->host];
		struct provenance_node *n = &pv->nodes[i];

		snprintf(n->name, sizeof(n->name), "%s", tn->name);
		snprintf(n->host, sizeof(n->host), "%s", local ? here :
			 h->ssh.host[0] ? h->ssh.host : h->name);
		snprintf(n->virt, sizeof(n->virt), "%s",
			 pp->virt == PLAN_VIRT_KVM ? "kvm" : "tcg");
		snprintf(n->kernel, sizeof(n->kernel), "%s",
			 topo_kernel_name(tn->kernel));
		/* Another host's files are its own: not read from here. */
		if (!local)
			continue;
		if (pp->kernel[tn->kernel])
			provenance_kernel(n, pp->kernel[tn->kernel]);
		snprintf(n->image, sizeof(n->image), "%s", image);
	}
	pv->n_nodes = l->t->n_nodes;
}

int lab_provenance_save(const struct lab *l, struct errbuf *err)
{
	struct provenance *pv = malloc(sizeof(*pv));
	int rc;

	if (!pv)
		return errbuf_set(err, "out of memory");
	lab_provenance(l, pv);
	rc = provenance_save(pv, l->run_dir, err);
	free(pv);
	return rc;
}
