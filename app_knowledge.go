//go:build !headless

package main

import (
	"hearth/backend/extract"
	"hearth/backend/knowledge"
)

// Settings › Knowledge: the knowledge folders, their modes and status. Adding indexes in
// the background (the desktop watches); the section polls List while a folder updates.

// ListKnowledge is every knowledge folder with its status.
func (a *KnowledgeAPI) ListKnowledge() []knowledge.Status { return a.h.Knowledge.List() }

// AddKnowledge adds the folder at path with mode ("always" or "ask").
func (a *KnowledgeAPI) AddKnowledge(path, mode string) (knowledge.Status, error) {
	return a.h.Knowledge.Add(a.context(), path, mode)
}

// RemoveKnowledge takes a folder off the list and its passages out of the index.
func (a *KnowledgeAPI) RemoveKnowledge(path string) error {
	return a.h.Knowledge.Remove(a.context(), path)
}

// SetKnowledgeMode changes when a folder is searched.
func (a *KnowledgeAPI) SetKnowledgeMode(path, mode string) error {
	return a.h.Knowledge.SetMode(path, mode)
}

// SetKnowledgeWritable lets the file tools and commands change a folder's files (on)
// or keeps them read-only (off).
func (a *KnowledgeAPI) SetKnowledgeWritable(path string, on bool) error {
	return a.h.Knowledge.SetWritable(path, on)
}

// OpenKnowledge shows the file of a knowledge folder an answer cites
// ("Manuals/kiln.md line 12") in the system's viewer.
func (a *KnowledgeAPI) OpenKnowledge(place string) error { return a.h.Knowledge.Open(place) }

// ViewKnowledge is the text around the line a knowledge citation names, for the
// window's read-only file view.
func (a *KnowledgeAPI) ViewKnowledge(place string) (extract.View, error) {
	return a.h.Knowledge.View(place)
}
