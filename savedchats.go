package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Saved chats live in CHAT_HISTORY_DIR, one JSON file per chat named
// YYYYMMDD-HHMMSS-title-<title>.json with {"title", "date", "history"}, as
// Python YAICLI writes them, so its chats load here. yaicli also keeps what
// YAICLI drops: tool_calls, tool_call_id, name and reasoning.

// savedChat is the file format.
type savedChat struct {
	Title   string         `json:"title"`
	Date    string         `json:"date"`
	History []savedMessage `json:"history"`
	// Attached is the files /add'ed to the chat, attached again when it is
	// continued: the prompt then opens as it did, and the cache holds it.
	Attached []string `json:"attached,omitempty"`
	// Checkpoints names the chat's session in the checkpoint store
	// (checkpoint.go), so /undo works in a chat continued later.
	Checkpoints string `json:"checkpoints,omitempty"`
}

// savedMessage is a message as stored, reasoning included.
type savedMessage struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
	Reasoning  string     `json:"reasoning,omitempty"`

	// Images says where each image is, not its bytes (images.go).
	Images []savedImage `json:"images,omitempty"`
}

// chatInfo is one saved chat in a listing.
type chatInfo struct {
	path, title string
	date        string
}

// listChats returns the saved chats, newest first, at most max of them;
// none from a directory that is not ours alone (checkPrivate).
func listChats(dir string, max int) []chatInfo {
	if checkPrivate(dir, os.Geteuid(), "CHAT_HISTORY_DIR") != nil {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	type dated struct {
		path string
		mod  time.Time
	}
	var all []dated
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			all = append(all, dated{f, st.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].mod.After(all[j].mod) })
	var out []chatInfo
	for _, d := range all {
		if max > 0 && len(out) == max {
			break
		}
		out = append(out, parseChatName(d.path))
	}
	return out
}

// parseChatName reads the title and date from a chat file's name.
func parseChatName(path string) chatInfo {
	stem := strings.TrimSuffix(filepath.Base(path), ".json")
	ci := chatInfo{path: path, title: stem}
	if i := strings.Index(stem, "-title-"); i == 15 {
		ci.title = stem[i+len("-title-"):]
		ci.date = fmt.Sprintf("%s-%s-%s %s:%s", stem[0:4], stem[4:6], stem[6:8], stem[9:11], stem[11:13])
	}
	return ci
}

// loadChat reads a saved chat; a corrupt file, or one another user owns
// or can write to, is an error naming it.
func loadChat(path string) (savedChat, []message, error) {
	if err := checkOwnFile(path, os.Geteuid()); err != nil {
		return savedChat{}, nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return savedChat{}, nil, err
	}
	var c savedChat
	if err := json.Unmarshal(b, &c); err != nil {
		return savedChat{}, nil, fmt.Errorf("%s is not a readable chat (%v); it was skipped", path, err)
	}
	var h []message
	for _, m := range c.History {
		if m.Role == roleSystem {
			continue // the system prompt of this run is used instead
		}
		msg := message{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID, Name: m.Name, reasoning: m.Reasoning}
		h = append(h, reloadImages(msg, m.Images))
	}
	return c, validate(h), nil
}

// findChat returns the newest saved chat with this title.
func findChat(dir, title string) (chatInfo, bool) {
	for _, c := range listChats(dir, 0) {
		if c.title == title {
			return c, true
		}
	}
	return chatInfo{}, false
}

// saveChat writes the conversation (system messages left out) under title,
// into the newest file of that title when there is one (so the path /save
// prints is still the chat's after the autosaves and the save at exit),
// removing older files of the same title, and prunes the oldest chats
// beyond max. A same-title file that cannot be read is kept as .bak.
// attached is the paths of the files the chat has attached.
func saveChat(dir, title string, h []message, max int, now time.Time, attached ...string) (string, error) {
	return saveChatWith(dir, title, h, max, now, savedChat{Attached: attached})
}

// saveChatWith is saveChat keeping what extra says beside the history:
// the attached files and the checkpoint session.
func saveChatWith(dir, title string, h []message, max int, now time.Time, extra savedChat) (string, error) {
	title = chatName(strings.TrimSpace(title))
	if title == "" {
		title = "Chat " + now.Format("20060102-150405")
	}
	if err := privateDir(dir, os.Geteuid(), "CHAT_HISTORY_DIR"); err != nil {
		return "", err
	}
	c := savedChat{Title: title, Date: now.Format("2006-01-02T15:04:05.000000"), Attached: extra.Attached, Checkpoints: extra.Checkpoints}
	for _, m := range h {
		if m.Role != roleSystem {
			c.History = append(c.History, savedMessage{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID, Name: m.Name, Reasoning: m.reasoning, Images: savedImages(m.images)})
		}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, now.Format("20060102-150405")+"-title-"+safeFileName(title)+".json")
	old := listChats(dir, 0)
	same := func(o chatInfo) bool { return o.title == title || o.title == safeFileName(title) }
	for _, o := range old { // newest first: a chat keeps its file, so a path once said stays true
		if _, _, err := loadChat(o.path); same(o) && err == nil {
			path = o.path
			break
		}
	}
	if err := writeFileAtomic(path, b); err != nil {
		return "", fmt.Errorf("saving chat %q: %w", title, err)
	}
	for _, o := range old {
		if !same(o) || o.path == path {
			continue
		}
		if _, _, err := loadChat(o.path); err != nil {
			os.Rename(o.path, o.path+".bak") // unreadable: keep it, out of the listing
		} else {
			os.Remove(o.path)
		}
	}
	if all := listChats(dir, 0); max > 0 && len(all) > max {
		for _, o := range all[max:] {
			os.Remove(o.path)
		}
	}
	return path, nil
}

// chatName is title as a chat is saved and its file named: a control or
// invisible character (termsafe.go) becomes "_", so no file name or title
// holds bytes that drive a terminal when the chats are listed.
func chatName(title string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || invisible(r) {
			return '_'
		}
		return r
	}, title)
}

// writeChatList prints the saved chats, numbered as /load and /del take
// them, through the screen writer: a title or a file name saved before
// names were cleaned is shown, never obeyed.
func writeChatList(w screenWriter, dir string, max int) {
	if err := checkPrivate(dir, os.Geteuid(), "CHAT_HISTORY_DIR"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(w, "no saved chats: "+err.Error())
		return
	}
	chats := listChats(dir, max)
	if len(chats) == 0 {
		fmt.Fprintln(w, "no saved chats in "+dir)
		return
	}
	for i, c := range chats {
		fmt.Fprintf(w, "%2d. %s  (%s)\n", i+1, c.title, c.date)
	}
}
