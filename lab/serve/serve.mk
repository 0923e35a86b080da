# serve: `mstlab serve`, the lab's trees on a web page: its HTTP server
# on libmicrohttpd (serve_http, serve_conns: routes, tokens, caps), what
# the page is told (serve_model, serve_flows), the page itself (page/,
# built in by serve_assets.c) and its loop (serve_main.c).
LIBRARIES += serve
serve_DIR := lab/serve
serve_SRCS := lab/serve/serve_assets.c lab/serve/serve_conns.c \
	lab/serve/serve_flows.c lab/serve/serve_http.c \
	lab/serve/serve_main.c lab/serve/serve_model.c
serve_USES := orchestrator checks model libmst util
serve_LDLIBS := -ljansson -lmicrohttpd -lpthread

# The page of mstlab serve is assembled into serve_assets.o (.incbin):
# it is rebuilt when a file of the page changes.
SERVE_PAGE := $(wildcard lab/serve/page/*)
$(call obj,lab/serve/serve_assets.c) $(call obj_san,lab/serve/serve_assets.c): $(SERVE_PAGE)

# Routes, tokens, hostile clients against a real server, the page's data
# from run folders, live flows.
UNIT_TESTS += test_serve
test_serve_SRCS := tests/unit/test_serve.c tests/unit/serve_fixture.c \
	tests/unit/checks_fixture.c tests/unit/fixture_agree.c
test_serve_USES := serve
test_serve_LDLIBS := -lpthread
# The security model: tokens, origins, caps, deadlines.
UNIT_TESTS += test_serve_auth
test_serve_auth_SRCS := tests/unit/test_serve_auth.c tests/unit/serve_fixture.c
test_serve_auth_USES := serve
test_serve_auth_LDLIBS := -lpthread
