package i18n

import "strings"

// Resolve picks the shipped locale for the ui.language setting: "en" and "zh-CN" as they
// are, anything else ("auto") from the system's locale variables (FromEnv); English when
// they name no language or none Hearth ships. getenv is os.Getenv outside tests.
func Resolve(setting string, getenv func(string) string) Locale {
	switch Locale(setting) {
	case English, Chinese:
		return Locale(setting)
	}
	if l, ok := FromEnv(getenv); ok {
		return l
	}
	return English
}

// FromEnv reads the language from the first of the POSIX locale variables that names one
// (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), the order gettext reads them in: Chinese for zh*,
// English for any other language; ok is false when none names a language (unset, C or
// POSIX), so a caller can ask elsewhere.
func FromEnv(getenv func(string) string) (l Locale, ok bool) {
	if getenv == nil {
		return "", false
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
			return Chinese, true
		default:
			return English, true
		}
	}
	return "", false
}
