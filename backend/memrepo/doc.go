// Package memrepo keeps the history of the memory and persona files in a git
// repository of its own (go-git, no git binary): every change is a commit whose
// author says who changed the files (the agent, Dream, consolidation, the user,
// a program outside Hearth) and whose message says why, so any change can be
// listed, diffed and undone.
//
// The repository is bare and lives in the workspace's .hearth folder, beside a
// user's own git repository rather than in it; it never touches a work tree or
// an index file. Commits are built from blobs and trees directly, and the branch
// ref is replaced atomically after its objects are written, so a kill at any
// moment leaves either the old or the new history. Open recovers from what a
// crash or a damaged disk can still leave (a ref naming a missing or broken
// commit) by falling back to the newest readable commit.
package memrepo
