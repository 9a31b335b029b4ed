package telegram

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"hearth/backend/channels"
)

// download is a file an update names, fetched after mapping.
type download struct {
	fileID string
	size   int64 // as Telegram declared it (0: unknown)
	image  bool
	file   channels.File
}

// inbound maps an update to what the Service sees and fetches its media. ok is
// false for updates that carry nothing for Hearth (an edit, a channel post).
func (a *Adapter) inbound(ctx context.Context, bot Bot, u Update) (channels.Inbound, bool) {
	in, dls, ok := mapUpdate(bot, u, a.maxImage)
	if !ok {
		return in, false
	}
	if len(dls) > 0 && a.fetchFor != nil && !a.fetchFor(in) {
		a.log.Info("telegram: media not fetched for this message", "chat", in.ChatID, "user", in.UserID, "files", len(dls))
		return in, true
	}
	for _, d := range dls {
		max := a.maxFile
		if d.image {
			max = a.maxImage
		}
		data, err := a.fetch(ctx, d.fileID, d.size, max)
		if err != nil {
			a.log.Warn("telegram: a file was not taken", "chat", in.ChatID, "kind", d.file.Kind, "name", d.file.Name, "err", err)
			continue
		}
		if d.image {
			in.Images = append(in.Images, data)
		} else {
			d.file.Data = data
			in.Files = append(in.Files, d.file)
		}
	}
	return in, true
}

// mapUpdate is the pure half of inbound: no I/O, so it is fuzzed.
func mapUpdate(bot Bot, u Update, maxImage int64) (channels.Inbound, []download, bool) {
	in := channels.Inbound{Channel: "telegram", UpdateID: u.UpdateID}
	if q := u.CallbackQuery; q != nil {
		in.UserID, in.UserName = strconv.FormatInt(q.From.ID, 10), userName(&q.From)
		p := &channels.Press{ID: q.ID, Data: q.Data}
		if q.Message != nil {
			in.ChatID = strconv.FormatInt(q.Message.Chat.ID, 10)
			in.Group = isGroup(q.Message.Chat.Type)
			p.MessageID = strconv.FormatInt(q.Message.MessageID, 10)
		}
		in.Button = p
		return in, nil, in.ChatID != ""
	}
	m := u.Message
	if m == nil || m.From == nil || m.Chat.Type == "channel" {
		return in, nil, false
	}
	in.ChatID = strconv.FormatInt(m.Chat.ID, 10)
	in.MessageID = strconv.FormatInt(m.MessageID, 10)
	in.UserID, in.UserName = strconv.FormatInt(m.From.ID, 10), userName(m.From)
	in.Group = isGroup(m.Chat.Type)
	text, ents := m.Text, m.Entities
	if text == "" {
		text, ents = m.Caption, m.CaptionEntities
	}
	var mentioned bool
	in.Text, mentioned = readEntities(bot, text, ents)
	in.Mentioned = mentioned || (m.ReplyToMessage != nil && m.ReplyToMessage.From != nil && bot.ID != 0 && m.ReplyToMessage.From.ID == bot.ID)
	var dls []download
	if p, ok := pickPhotoWithin(m.Photo, maxImage); ok {
		dls = append(dls, download{fileID: p.FileID, size: p.FileSize, image: true})
	}
	if d := m.Document; d != nil {
		dls = append(dls, download{fileID: d.FileID, size: d.FileSize,
			file: channels.File{Name: safeName(d.FileName, "document"), MIME: d.MIMEType, Kind: "document"}})
	}
	if v := m.Voice; v != nil {
		mime := v.MIMEType
		if mime == "" {
			mime = "audio/ogg"
		}
		dls = append(dls, download{fileID: v.FileID, size: v.FileSize,
			file: channels.File{Name: "voice-" + time.Unix(m.Date, 0).UTC().Format("20060102-150405") + ".ogg", MIME: mime, Kind: "voice"}})
	}
	return in, dls, true
}

func isGroup(t string) bool { return t == "group" || t == "supergroup" }

func userName(u *User) string {
	if u.Username != "" {
		return "@" + u.Username
	}
	return strings.TrimSpace(u.FirstName + " " + u.LastName)
}

// readEntities finds whether text names the bot (an @mention, a mention of its
// user, or a command addressed to it) and strips "@botname" from commands, so
// "/new@hearth_bot" reads "/new". Offsets count UTF-16 code units; entities
// outside the text are ignored.
func readEntities(bot Bot, text string, ents []MessageEntity) (string, bool) {
	if len(ents) == 0 {
		return text, false
	}
	units := utf16.Encode([]rune(text))
	name := strings.ToLower(bot.Username)
	mentioned := false
	type cut struct{ from, to int }
	var cuts []cut
	for _, e := range ents {
		if e.Offset < 0 || e.Length <= 0 || e.Offset > len(units) || e.Length > len(units)-e.Offset {
			continue
		}
		s := string(utf16.Decode(units[e.Offset : e.Offset+e.Length]))
		switch e.Type {
		case "mention":
			if name != "" && strings.EqualFold(strings.TrimPrefix(s, "@"), name) {
				mentioned = true
			}
		case "text_mention":
			if e.User != nil && bot.ID != 0 && e.User.ID == bot.ID {
				mentioned = true
			}
		case "bot_command":
			if i := strings.IndexByte(s, '@'); i > 0 && name != "" && strings.EqualFold(s[i+1:], name) {
				mentioned = true
				at := e.Offset + len(utf16.Encode([]rune(s[:i])))
				cuts = append(cuts, cut{at, e.Offset + e.Length})
			}
		}
	}
	if len(cuts) == 0 {
		return text, mentioned
	}
	var out []uint16
	last := 0
	for _, c := range cuts {
		if c.from < last {
			continue // overlapping entities: keep the text as it is there
		}
		out = append(out, units[last:c.from]...)
		last = c.to
	}
	out = append(out, units[last:]...)
	return string(utf16.Decode(out)), mentioned
}

// pickPhoto takes the largest size Telegram offers (sizes come smallest first).
// The download itself is bounded, so an undeclared size is taken too.
func pickPhoto(ps []PhotoSize) (PhotoSize, bool) {
	best, ok := PhotoSize{}, false
	for _, p := range ps {
		if p.FileID == "" {
			continue
		}
		if !ok || p.Width*p.Height > best.Width*best.Height {
			best, ok = p, true
		}
	}
	return best, ok
}

// pickPhotoWithin prefers the largest size declared within max.
func pickPhotoWithin(ps []PhotoSize, max int64) (PhotoSize, bool) {
	var fit []PhotoSize
	for _, p := range ps {
		if p.FileSize <= max {
			fit = append(fit, p)
		}
	}
	if p, ok := pickPhoto(fit); ok {
		return p, true
	}
	return pickPhoto(ps)
}

// safeName keeps the last element of a sent name, never a path.
func safeName(name, fallback string) string {
	name = path.Base(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/"))
	if name == "." || name == "/" || name == ".." || name == "" {
		return fallback
	}
	return name
}

// fetch downloads a file: getFile, then /file/bot<token>/<path>. It refuses
// files over max (Telegram's own bound is 20 MB) before downloading, and a
// download that grows past what was declared.
func (a *Adapter) fetch(ctx context.Context, fileID string, declared, max int64) ([]byte, error) {
	if declared > max {
		return nil, fmt.Errorf("%d bytes, over the %d Hearth takes", declared, max)
	}
	var f File
	if err := a.do(ctx, "getFile", map[string]any{"file_id": fileID}, &f); err != nil {
		return nil, err
	}
	if f.FilePath == "" {
		return nil, fmt.Errorf("Telegram gave no path to download %s", fileID)
	}
	if f.FileSize > max {
		return nil, fmt.Errorf("%d bytes, over the %d Hearth takes", f.FileSize, max)
	}
	bound := max
	if f.FileSize > 0 {
		bound = f.FileSize
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, a.base+"/file/bot"+a.token+"/"+strings.TrimPrefix(f.FilePath, "/"), nil)
	if err != nil {
		return nil, a.scrub(err)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, a.scrub(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download answered HTTP %d", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, bound+1))
	if err != nil {
		return nil, a.scrub(err)
	}
	if int64(len(data)) > bound {
		return nil, fmt.Errorf("the download grew past the %d bytes declared", bound)
	}
	return data, nil
}
