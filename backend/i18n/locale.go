package i18n

import "strings"

// Resolve picks the shipped locale for the ui.language setting: "en" and "zh-CN" as they
// are, anything else ("auto") from the first of the POSIX locale variables that names a
// language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), the order gettext reads them in; English
// when none names Chinese. getenv is os.Getenv outside tests.
func Resolve(setting string, getenv func(string) string) Locale {
	switch Locale(setting) {
	case English, Chinese:
		return Locale(setting)
	}
	if getenv == nil {
		return English
	}
	for _, name := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(name)
		// LANGUAGE is a list (zh_CN:en); C and POSIX name no language.
		first, _, _ := strings.Cut(v, ":")
		first = strings.ToLower(first)
		switch {
		case first == "" || first == "c" || strings.HasPrefix(first, "c.") || first == "posix":
			continue
		case strings.HasPrefix(first, "zh"):
			return Chinese
		default:
			return English
		}
	}
	return English
}
