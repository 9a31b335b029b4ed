module hearth

go 1.26

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/boyter/gocodewalker v1.4.0
	github.com/google/jsonschema-go v0.4.3
	github.com/kaptinlin/jsonrepair v0.2.15
)

require (
	github.com/danwakefield/fnmatch v0.0.0-20160403171240-cbb64ac3d964 // indirect
	github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e // indirect
	golang.org/x/sync v0.7.0 // indirect
)
