//go:build linux && (desktop || dev)

package main

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <gtk/gtk.h>
#include <malloc.h>
#include <stdint.h>
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

// A focused text field's caret blinks by asking for a frame at every toggle, and the
// engine then renders at the display's rate for a while after each: about 100 context
// switches a second for as long as the composer has focus. GTK's own text fields stop
// blinking after gtk-cursor-blink-timeout seconds without input; the web view does not,
// and turning blinking off makes it ask for a frame every frame. So after that many
// seconds without input the blink period is made longer than any session (the caret
// stays as it is), and the user's period comes back with the next input.
static gint64 hearthLastInput = 0;
static guint hearthIdleSource = 0;
static gint hearthBlinkTime = 0; // the user's blink period while parked, else 0
// When the caret parks, the window is at rest: Go is told through hearthWindowIdle
// (webview_idle_linux.go) with this cgo.Handle of the function to call, or 0 for none.
extern void hearthWindowIdle(uintptr_t handle);
static uintptr_t hearthIdleHandle = 0;

static gint64 hearthBlinkTimeout(void) {
	gint t = 10;
	g_object_get(gtk_settings_get_default(), "gtk-cursor-blink-timeout", &t, NULL);
	return (t > 0 && t < 3600 ? t : 10) * G_USEC_PER_SEC;
}

static gboolean hearthIdleCheck(gpointer data) {
	(void)data;
	hearthIdleSource = 0;
	gint64 idle = g_get_monotonic_time() - hearthLastInput, limit = hearthBlinkTimeout();
	if (idle < limit) {
		hearthIdleSource = g_timeout_add((guint)((limit - idle) / 1000) + 1, hearthIdleCheck, NULL);
		return G_SOURCE_REMOVE;
	}
	if (hearthBlinkTime == 0) {
		GtkSettings *s = gtk_settings_get_default();
		g_object_get(s, "gtk-cursor-blink-time", &hearthBlinkTime, NULL);
		if (hearthBlinkTime <= 0) hearthBlinkTime = 1200;
		g_object_set(s, "gtk-cursor-blink-time", G_MAXINT / 2, NULL);
		if (hearthIdleHandle) hearthWindowIdle(hearthIdleHandle);
	}
	return G_SOURCE_REMOVE;
}

static gboolean hearthOnInput(GtkWidget *w, GdkEvent *e, gpointer data) {
	(void)w; (void)data;
	switch (e->type) {
	case GDK_KEY_PRESS: case GDK_BUTTON_PRESS: case GDK_SCROLL: case GDK_MOTION_NOTIFY: case GDK_FOCUS_CHANGE:
		break;
	default:
		return FALSE;
	}
	hearthLastInput = g_get_monotonic_time();
	if (hearthBlinkTime != 0) {
		g_object_set(gtk_settings_get_default(), "gtk-cursor-blink-time", hearthBlinkTime, NULL);
		hearthBlinkTime = 0;
	}
	if (hearthIdleSource == 0) hearthIdleSource = g_timeout_add((guint)(hearthBlinkTimeout() / 1000), hearthIdleCheck, NULL);
	return FALSE; // the event goes on as before
}

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
		g_signal_connect(view, "event", G_CALLBACK(hearthOnInput), NULL);
		hearthLastInput = g_get_monotonic_time();
		if (hearthIdleSource == 0) hearthIdleSource = g_timeout_add((guint)(hearthBlinkTimeout() / 1000), hearthIdleCheck, NULL);
		hearthTuned++;
	}
	g_list_free(tops);
	if (hearthTuned > 0 || ++hearthTries >= 100) return G_SOURCE_REMOVE;
	return G_SOURCE_CONTINUE; // the window is not made yet: look again at the next tick
}

static void hearthScheduleTune(uintptr_t idle) {
	hearthIdleHandle = idle;
	g_timeout_add(20, hearthTune, NULL);
}

// A resize of the app's window, run by GTK's main loop: after the calls Wails queued
// before it (a new minimum size), and never beside the main loop's own work on the window.
typedef struct { int w, h; } hearthSize;

static gboolean hearthResizeNow(gpointer data) {
	hearthSize *s = data;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l; l = l->next) {
		if (hearthFindWebView(GTK_WIDGET(l->data))) gtk_window_resize(GTK_WINDOW(l->data), s->w, s->h);
	}
	g_list_free(tops);
	g_free(s);
	return G_SOURCE_REMOVE;
}

static void hearthResize(int w, int h) {
	hearthSize *s = g_new(hearthSize, 1);
	s->w = w;
	s->h = h;
	g_idle_add(hearthResizeNow, s); // the priority of Wails' own queue: first in, first run
}
static int hearthTunedCount(void) { return hearthTuned; }
*/
import "C"

import (
	"context"
	"log/slog"
	"os"
	"runtime/cgo"
)

// lightenWebView makes the window's web engine hold and do less at rest; see
// docs/performance.md. Call it on the main thread before wails.Run: the settings are
// applied from GTK's main loop once the window's web view exists. idle runs (on a
// goroutine of its own) each time the window comes to rest after input.
func lightenWebView(idle func()) {
	// WebKit's memory-pressure monitor reads /proc every five seconds (every second on
	// a busy machine) for as long as the app runs; the window's caches are off, so what
	// it would free under pressure is little. A user's own setting wins.
	if _, set := os.LookupEnv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR"); !set {
		_ = os.Setenv("WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR", "1")
	}
	C.hearthScheduleTune(C.uintptr_t(cgo.NewHandle(idle))) // kept for the life of the process
}

// logWebViewTuned says whether lightenWebView found the web view (read from any thread
// once the window is up: a plain int written once by the main thread).
func logWebViewTuned() {
	if n := int(C.hearthTunedCount()); n > 0 {
		slog.Info("web view lightened: unused engine features and caches off, the caret rests when you do", "views", n)
	} else {
		slog.Warn("web view not lightened: it was not found")
	}
}

// trimCHeap gives the C heap's free pages back to the system (glibc keeps what GTK and
// the engine's UI side freed, in every thread's arena). Called once the app rests after
// work (backend/app/rest.go), from any thread: malloc_trim takes each arena's lock.
func trimCHeap() { C.malloc_trim(0) }

// resizeWindow sizes the window on GTK's main thread. Wails' WindowSetSize calls GTK from
// the calling goroutine's thread, where it races the main loop: a Quick ask opened just
// after the window was shown (a notification clicked) kept the full window's size.
func resizeWindow(_ context.Context, width, height int) { C.hearthResize(C.int(width), C.int(height)) }
