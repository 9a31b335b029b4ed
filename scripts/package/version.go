package main

import (
	"fmt"
	"regexp"
	"strings"
)

// describeRe matches `git describe --tags --always --dirty` output with a tag:
// v1.2.3, v1.2.3-4-gabc1234, v1.2.3-4-gabc1234-dirty, v1.2.3-dirty.
var describeRe = regexp.MustCompile(`^v?(.*?)(?:-(\d+)-g([0-9a-f]+))?(-dirty)?$`)

// hashRe matches describe output without any tag: an abbreviated commit hash.
var hashRe = regexp.MustCompile(`^([0-9a-f]{4,40})(-dirty)?$`)

// debVersionRe is a Debian upstream version without epoch or revision: it starts with a
// digit and holds only alphanumerics and . + ~ (a hyphen would start a revision).
var debVersionRe = regexp.MustCompile(`^[0-9][A-Za-z0-9.+~]*$`)

// debianVersion turns `git describe` output into a version dpkg orders correctly:
//
//	v1.2.3                   → 1.2.3
//	v1.2.3-4-gabc1234        → 1.2.3+git4.abc1234   (after 1.2.3, before 1.2.4)
//	abc1234 (no tag yet)     → 0.0.0~git<commits>.abc1234 (before any release; a later
//	                           commit count sorts later)
//	…-dirty                  → ….dirty
//
// commits is the number of commits on HEAD (git rev-list --count), used when no tag exists.
func debianVersion(describe string, commits int) (string, error) {
	d := strings.TrimSpace(describe)
	var v string
	if m := hashRe.FindStringSubmatch(d); m != nil {
		v = fmt.Sprintf("0.0.0~git%d.%s", commits, m[1])
		if m[2] != "" {
			v += ".dirty"
		}
	} else if m := describeRe.FindStringSubmatch(d); m != nil && m[1] != "" {
		v = sanitize(m[1])
		if m[2] != "" {
			v += fmt.Sprintf("+git%s.%s", m[2], m[3])
		}
		if m[4] != "" {
			if m[2] == "" {
				v += "+"
			} else {
				v += "."
			}
			v += "dirty"
		}
	}
	if !debVersionRe.MatchString(v) {
		return "", fmt.Errorf("cannot make a Debian version of %q (git describe); tag releases as v1.2.3, or set VERSION=1.2.3", describe)
	}
	return v, nil
}

// sanitize maps a tag to Debian's alphabet: a pre-release marker after a hyphen sorts
// before the release (1.0.0-rc1 → 1.0.0~rc1); other characters become dots.
func sanitize(tag string) string {
	if i := strings.IndexByte(tag, '-'); i >= 0 {
		tag = tag[:i] + "~" + tag[i+1:]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '.', r == '+', r == '~':
			return r
		}
		return '.'
	}, tag)
}
