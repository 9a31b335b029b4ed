//go:build !headless && linux

package main

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

// Features of the engine a chat window never uses: a page cache for back and
// forward (the window never navigates), WebGL, audio, video and media streams.
// Off, the web process neither loads nor keeps them.
static const char *hearthUnused[] = {
	"enable-page-cache", "enable-webgl", "enable-webaudio", "enable-media",
	"enable-mediasource", "enable-media-stream", "enable-encrypted-media", NULL,
};

static int hearthTuned = 0; // web views tuned, read by the Go side
static int hearthTries = 0;

static WebKitWebView *hearthFindWebView(GtkWidget *w) {
	if (WEBKIT_IS_WEB_VIEW(w)) return WEBKIT_WEB_VIEW(w);
	if (!GTK_IS_CONTAINER(w)) return NULL;
	WebKitWebView *found = NULL;
	GList *kids = gtk_container_get_children(GTK_CONTAINER(w));
	for (GList *l = kids; l && !found; l = l->next) found = hearthFindWebView(GTK_WIDGET(l->data));
	g_list_free(kids);
	return found;
}

static gboolean hearthTune(gpointer data) {
	(void)data;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l; l = l->next) {
		WebKitWebView *view = hearthFindWebView(GTK_WIDGET(l->data));
		if (!view) continue;
		WebKitSettings *s = webkit_web_view_get_settings(view);
		GObjectClass *cls = G_OBJECT_GET_CLASS(s);
		for (int i = 0; hearthUnused[i]; i++) {
			// Looked up first: a property a WebKitGTK release dropped is skipped, not warned about.
			if (g_object_class_find_property(cls, hearthUnused[i])) g_object_set(s, hearthUnused[i], FALSE, NULL);
		}
		// One local page and no navigation: the engine's memory and page caches only hold
		// copies of what is already in memory.
		webkit_web_context_set_cache_model(webkit_web_view_get_context(view), WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
		hearthTuned++;
	}
	g_list_free(tops);
	if (hearthTuned > 0 || ++hearthTries >= 100) return G_SOURCE_REMOVE;
	return G_SOURCE_CONTINUE; // the window is not made yet: look again at the next tick
}

static void hearthScheduleTune(void) { g_timeout_add(20, hearthTune, NULL); }
static int hearthTunedCount(void) { return hearthTuned; }
*/
import "C"

import (
	"log/slog"
	"os"
)

// lightenWebView makes the window's web engine hold and do less at rest; see
// docs/performance.md. Call it on the main thread before wails.Run: the settings are
// applied from GTK's main loop once the window's web view exists.
func lightenWebView() {
	// WebKit's memory-pressure monitor reads /proc every five seconds (every second on
	// a busy machine) for as long as the app runs; the window's caches are off, so what
	// it would free under pressure is little. A user's own setting wins.
	if _, set := os.LookupEnv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR"); !set {
		_ = os.Setenv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR", "1")
	}
	C.hearthScheduleTune()
}

// logWebViewTuned says whether lightenWebView found the web view (read from any thread
// once the window is up: a plain int written once by the main thread).
func logWebViewTuned() {
	if n := int(C.hearthTunedCount()); n > 0 {
		slog.Info("web view lightened: unused engine features and caches off", "views", n)
	} else {
		slog.Warn("web view not lightened: it was not found")
	}
}
