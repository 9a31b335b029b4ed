// Command wordnet writes backend/recall/wordnet.bin: the related-words
// table recall's query expansion reads (backend/recall/expand.go). It is
// built from WordNet 3.0's database files (Princeton University; the licence
// is in backend/recall/WORDNET_LICENSE), as Debian's wordnet-base package
// installs them in /usr/share/wordnet, and kept small by taking only what
// the sense-tagged corpus WordNet ships counts (cntlist.rev):
//   - a word's senses: those the corpus counts at least a fifth as often as
//     its commonest (at most maxSenses), or, for a word it never counts
//     ("influenza"), the sense it shares with a counted word ("flu");
//   - for each sense, its synonyms (the synset), and, one step away, the
//     counted synsets above it (hypernym), below it (hyponym, the commonest
//     few), of the same root (derivation) and, for adjectives, similar;
//   - only lowercase words and phrases of up to three words (no names).
//
// Usage: go run ./scripts/wordnet [-dict /usr/share/wordnet] [-o backend/recall/wordnet.bin]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "the directory of WordNet 3.0's database files (data.noun, cntlist.rev, …)")
	out := flag.String("o", "backend/recall/wordnet.bin", "the file to write")
	flag.Parse()
	db, err := load(*dict)
	if err == nil {
		var b bytes.Buffer
		if err = db.build().write(&b); err == nil {
			err = os.WriteFile(*out, b.Bytes(), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wordnet:", err)
		os.Exit(1)
	}
}

// maxFileSize bounds what is read of one database file (data.noun, the
// largest, is 15 MB).
const maxFileSize = 64 << 20

// load reads the database files of dir.
func load(dir string) (*wordnet, error) {
	db := &wordnet{synsets: map[string]*synset{}, counts: map[senseKey]int{}, exc: map[string][]string{}}
	if err := eachLine(filepath.Join(dir, "cntlist.rev"), func(l string) error {
		k, n, ok := parseCount(l)
		if ok {
			db.counts[k] += n
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		if err := eachLine(filepath.Join(dir, "data."+pos), func(l string) error {
			s, err := parseSynset(l)
			if err != nil || s == nil {
				return err
			}
			db.synsets[s.id] = s
			return nil
		}); err != nil {
			return nil, err
		}
		if err := eachLine(filepath.Join(dir, pos+".exc"), func(l string) error {
			f := strings.Fields(l)
			if len(f) >= 2 && plain(f[0]) {
				db.exc[f[0]] = append(db.exc[f[0]], f[1:]...)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	if len(db.synsets) == 0 {
		return nil, fmt.Errorf("%s holds no synsets: give the directory of WordNet 3.0's data.noun (-dict)", dir)
	}
	db.count()
	return db, nil
}

// eachLine calls fn with each line of path; a missing file is an error that
// says which.
func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w (is WordNet 3.0 installed? Debian: apt-get install wordnet-base)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxFileSize))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if err := fn(sc.Text()); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// plain reports whether a WordNet lemma (underscores between words) is one
// the table keeps: lowercase letters, at most three words.
func plain(lemma string) bool {
	if lemma == "" || strings.Count(lemma, "_")+strings.Count(lemma, "-") > 2 {
		return false
	}
	for _, c := range []byte(lemma) {
		if !('a' <= c && c <= 'z' || c == '_' || c == '-') {
			return false
		}
	}
	return lemma[0] != '_' && lemma[0] != '-' && !strings.HasSuffix(lemma, "_") && !strings.HasSuffix(lemma, "-")
}

// phrase is lemma as recall's table holds it: words one space apart.
func phrase(lemma string) string {
	return strings.NewReplacer("_", " ", "-", " ").Replace(lemma)
}
