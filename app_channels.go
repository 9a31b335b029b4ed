//go:build !headless

package main

import "hearth/backend/channels"

// Settings › Channels' bindings, each a forward to the channels service. The panel polls
// Status while it is open, so a connection, a pairing or a request shows within seconds.

// Status says how the channels stand: state, bot, pairing code, paired and waiting peers.
func (a *ChannelsAPI) Status() channels.Status { return a.h.Channels.Status() }

// SetTelegramToken stores the bot token in the keyring ("" removes it).
func (a *ChannelsAPI) SetTelegramToken(token string) error {
	return a.h.Channels.SetTelegramToken(token)
}

// SetTelegram switches the channel, group chats and the default notify-in.
func (a *ChannelsAPI) SetTelegram(enabled, groups bool, notifyIn string) error {
	return a.h.Channels.SetTelegram(enabled, groups, notifyIn)
}

// PairingCode opens a pairing window and returns its code.
func (a *ChannelsAPI) PairingCode() (string, error) { return a.h.Channels.PairingCode() }

// AllowPeer adds a user id to those who may talk to the agent (typed, or a request allowed).
func (a *ChannelsAPI) AllowPeer(id string) error { return a.h.Channels.AllowPeer(id) }

// RemovePeer takes a user id off that list, or declines its request.
func (a *ChannelsAPI) RemovePeer(id string) error { return a.h.Channels.RemovePeer(id) }
