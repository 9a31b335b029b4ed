//go:build !headless

package main

import "hearth/backend/settings"

// API keys written in config.json in plain text: the Settings
// view shows them with a Move to keyring button. Each forwards to settings.Keys.

// PlainKeys lists the API keys config.json holds in plain text.
func (a *SettingsAPI) PlainKeys() settings.PlainKeyReport { return a.h.Settings.Keys().PlainKeys() }

// MoveKeyToKeyring moves one of them ("openai", "custom.<name>", "web.search")
// into the OS keyring; config.json then holds "${keyring:<provider>}".
func (a *SettingsAPI) MoveKeyToKeyring(provider string) error {
	return a.h.Settings.Keys().MoveKeyToKeyring(provider)
}
