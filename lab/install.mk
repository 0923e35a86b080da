# make install, make uninstall, make deb.
#
# Installs what a user of the host runs and what it boots, in the layout
# lab/model/paths.c looks for beside PREFIX/bin/mstlab:
#
#   PREFIX/bin/mstlab                       the orchestrator, the one host program
#   PREFIX/lib/mstlab/kernel-NAME/bzImage   the guest kernels (others than default if built)
#   PREFIX/lib/mstlab/initramfs.cpio.lz4    the guest image, and beside it
#   PREFIX/lib/mstlab/initramfs.tools/      its tools share (tcpdump, ...)
#   PREFIX/share/mstlab/topologies/         the example labs (multihost/ too)
#   PREFIX/share/man/man{1,5,8}/            every man page
#   PREFIX/share/doc/mstlab/                README.md and docs/ as in the
#                                           tree: the man pages name them
#   PREFIX/share/bash-completion/completions/mstlab
#
# mstd, mstctl, probe-gen, probe-sink, hsmpctl, hsmp-test and ethsend run
# in the guests and are in the image; on the host they have no bridge in
# MST mode, no emulated device and no lab to work on, so only their man
# pages are installed (they document what `mstlab exec` runs). bpdu-pcap
# and the benchmarks are the test suites' tools. DESTDIR stages it all
# (debian/rules, tests/install/destdir).
PREFIX     ?= /usr/local
DESTDIR    ?=
bindir     := $(PREFIX)/bin
mstlibdir  := $(PREFIX)/lib/mstlab
mstsharedir := $(PREFIX)/share/mstlab
mandir     := $(PREFIX)/share/man
completiondir := $(PREFIX)/share/bash-completion/completions
docdir     := $(PREFIX)/share/doc/mstlab
# The pages, their pictures and the schema, at their paths in the tree.
DOC_FILES  := README.md $(wildcard docs/*.md docs/*.json docs/images/*.png docs/ci/* \
	docs/design/*.md docs/design/*.svg)
# What an installed mstlab learns about the host (paths.h).
cachedir   := /var/cache/mstlab

# Every kernel by name (mstlab kernels): the default one is built if
# need be, each other is installed when it has been built (make kernel
# KERNEL=NAME).
KERNEL_NAMES    := default debug 6.12 6.12-debug
KERNEL_IMAGE     = $(BUILD)/kernel-$(1)/arch/x86/boot/bzImage
INSTALL_FLAVORS := default $(foreach k,$(filter-out default,$(KERNEL_NAMES)),$(if $(wildcard $(call KERNEL_IMAGE,$(k))),$(k)))
INSTALL_TOOLS   := $(INITRAMFS:.cpio.lz4=.tools)
COMPLETION      := lab/mstlab/completion.bash

.PHONY: install uninstall deb
install: $(BUILD)/bin/mstlab $(call KERNEL_IMAGE,default) $(INITRAMFS) $(MAN_PAGES) \
		$(COMPLETION)
	$(if $(PREFIX),,$(error PREFIX is empty))
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mstsharedir)/topologies \
		$(DESTDIR)$(completiondir) \
		$(addprefix $(DESTDIR)$(mandir)/man,$(sort $(subst .,,$(suffix $(MAN_PAGES)))))
	install -m 0755 $(BUILD)/bin/mstlab $(DESTDIR)$(bindir)/mstlab
	@# The whole folder anew: no kernel or tool of an older install stays.
	rm -rf $(DESTDIR)$(mstlibdir)
	$(foreach f,$(INSTALL_FLAVORS),install -D -m 0644 $(call KERNEL_IMAGE,$(f)) \
		$(DESTDIR)$(mstlibdir)/kernel-$(f)/bzImage &&) true
	install -m 0644 $(INITRAMFS) $(DESTDIR)$(mstlibdir)/initramfs.cpio.lz4
	@[[ -d $(INSTALL_TOOLS) ]] || { echo "install: no $(INSTALL_TOOLS): run 'make image'" >&2; exit 1; }
	cp -R --no-dereference --preserve=mode $(INSTALL_TOOLS) \
		$(DESTDIR)$(mstlibdir)/initramfs.tools
	install -m 0644 topologies/*.yaml $(DESTDIR)$(mstsharedir)/topologies/
	install -D -m 0644 -t $(DESTDIR)$(mstsharedir)/topologies/multihost \
		topologies/multihost/*.yaml
	$(foreach f,$(DOC_FILES),install -D -m 0644 $(f) $(DESTDIR)$(docdir)/$(f) &&) true
	$(foreach p,$(MAN_PAGES),install -m 0644 $(p) \
		$(DESTDIR)$(mandir)/man$(subst .,,$(suffix $(p)))/ &&) true
	install -m 0644 $(COMPLETION) $(DESTDIR)$(completiondir)/mstlab

uninstall:
	$(if $(PREFIX),,$(error PREFIX is empty))
	rm -f $(DESTDIR)$(bindir)/mstlab $(DESTDIR)$(completiondir)/mstlab \
		$(foreach p,$(MAN_PAGES),$(DESTDIR)$(mandir)/man$(subst \
		.,,$(suffix $(p)))/$(notdir $(p)))
	rm -rf $(DESTDIR)$(mstlibdir) $(DESTDIR)$(mstsharedir) \
		$(DESTDIR)$(docdir) $(DESTDIR)$(cachedir)

# The Debian package, from this build folder (debian/rules says how):
# everything is built here first, so the make calls in debian/rules have
# nothing left to do but relink mstlab with the package's version.
DEB_DIR := $(BUILD)/deb
deb: $(DEPS_STAMP) $(call KERNEL_IMAGE,default) $(INITRAMFS) progs man
	dpkg-checkbuilddeps
	rm -rf $(DEB_DIR)
	debian/rules build
	debian/rules binary
	debian/rules clean
	@ls $(DEB_DIR)/*.deb
