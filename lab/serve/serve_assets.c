// SPDX-License-Identifier: MIT
/*
 * The page of mstlab serve, built into the binary: lab/serve/page/
 * assembled in with .incbin (serve.mk makes this object depend on
 * those files), so the page works offline and no request path ever
 * reaches the file system.
 */
#include <string.h>

#include "serve_http.h"

/* name: the file's octets, then a NUL; name_end: where they end. */
#define EMBED(name, file)                                               \
	__asm__(".pushsection .rodata\n"                                \
		".balign 16\n"                                          \
		".globl " #name "\n"                                    \
		".hidden " #name "\n"                                   \
		#name ":\n"                                             \
		".incbin \"lab/serve/page/" file "\"\n"               \
		".globl " #name "_end\n"                                \
		".hidden " #name "_end\n"                               \
		#name "_end:\n"                                         \
		".byte 0\n"                                             \
		".popsection\n");                                       \
	extern const unsigned char name[], name##_end[]

EMBED(serve_index_html, "index.html");
EMBED(serve_app_js, "app.js");
EMBED(serve_app_css, "app.css");

#define FILE_OF(path, type, name) { path, type, name, 0 }

const struct serve_asset *serve_asset_find(const char *path)
{
	static struct serve_asset assets[] = {
		FILE_OF("/", "text/html; charset=utf-8", serve_index_html),
		FILE_OF("/app.js", "text/javascript; charset=utf-8",
			serve_app_js),
		FILE_OF("/app.css", "text/css; charset=utf-8", serve_app_css),
	};
	static const unsigned char *const ends[] = {
		serve_index_html_end, serve_app_js_end, serve_app_css_end,
	};

	for (size_t i = 0; i < sizeof(assets) / sizeof(assets[0]); i++) {
		if (strcmp(path, assets[i].path))
			continue;
		assets[i].len = (size_t)(ends[i] - assets[i].data);
		return &assets[i];
	}
	return NULL;
}
