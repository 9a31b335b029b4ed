package cli

import (
	"fmt"
	"io"

	"hearth/backend/settings"
)

// printPlainKeys adds the "API keys" lines to `hearth status`: one per key
// written in config.json in plain text, then what to do about them. It prints
// nothing when every key is in the keyring, in the environment or unset.
func printPlainKeys(w io.Writer, r settings.PlainKeyReport) {
	if len(r.Plain) == 0 {
		return
	}
	label := "API keys    "
	for _, k := range r.Plain {
		fmt.Fprintf(w, "%s%s is stored in plain text in config.json\n", label, k.Key)
		label = pad
	}
	it, stays := "it", "it stays"
	if len(r.Plain) > 1 {
		it, stays = "them", "they stay"
	}
	if r.Keyring {
		fmt.Fprintf(w, "%sto move %s into the OS keyring: open Settings in the Hearth window and press\n", pad, it)
		fmt.Fprintf(w, "%s\"Move to keyring\" beside the key (Hearth never moves a key on its own)\n", pad)
	} else {
		fmt.Fprintf(w, "%sno OS keyring answers, so %s there", pad, stays)
		if r.Private {
			fmt.Fprintf(w, "; config.json is readable only by you (%s)", r.FileMode)
		}
		fmt.Fprintln(w)
	}
	if !r.Private && r.FileMode != "" {
		fmt.Fprintf(w, "%sWARNING: other users can read config.json (mode %s); run: chmod 600 %s\n", pad, r.FileMode, r.ConfigFile)
	}
}
