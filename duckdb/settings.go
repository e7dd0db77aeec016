package duckdb

import (
	"context"
	"fmt"
	"strings"
)

// setting is one of DuckDB's settings of its Arrow export, and the value a
// QueryConfig asks of it ("" for whatever the connection has).
type setting struct {
	name  string
	value func(QueryConfig) string
}

// exportSettings is every setting a QueryConfig decides.
var exportSettings = [...]setting{
	{"arrow_lossless_conversion", func(c QueryConfig) string { return boolSetting(!c.Lossy) }},
	{"produce_arrow_string_view", func(c QueryConfig) string { return boolSetting(c.StringViews) }},
	{"arrow_output_list_view", func(c QueryConfig) string { return boolSetting(c.ListViews) }},
	{"arrow_output_version", func(c QueryConfig) string {
		if c.StringViews || c.ListViews {
			return "1.5" // the first version with views
		}
		return ""
	}},
}

func boolSetting(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// currentSettings is the query that reads every export setting.
var currentSettings = func() string {
	cols := make([]string, len(exportSettings))
	for i, s := range exportSettings {
		cols[i] = fmt.Sprintf("current_setting('%s')::VARCHAR", s.name)
	}
	return "SELECT " + strings.Join(cols, ", ")
}()

// export sets, for the session's connection only, the export settings cfg
// asks that it does not have, and returns the func that puts them back.
func (s *session) export(ctx context.Context, cfg QueryConfig) (restore func() error, err error) {
	var have [len(exportSettings)]string
	dest := make([]any, len(have))
	for i := range have {
		dest[i] = &have[i]
	}
	if err := s.conn.QueryRowContext(ctx, currentSettings).Scan(dest...); err != nil {
		return nil, err
	}
	var set, back []string
	for i, st := range exportSettings {
		want := st.value(cfg)
		if want == "" || strings.EqualFold(have[i], want) {
			continue
		}
		set = append(set, fmt.Sprintf("SET SESSION %s = '%s'", st.name, want))
		back = append(back, fmt.Sprintf("SET SESSION %s = '%s'", st.name, strings.ReplaceAll(have[i], "'", "''")))
	}
	if len(set) == 0 {
		return func() error { return nil }, nil
	}
	if _, err := s.conn.ExecContext(ctx, strings.Join(set, "; ")); err != nil {
		return nil, err
	}
	return func() error {
		// Put back whatever ctx became: the connection outlives it.
		_, err := s.conn.ExecContext(context.WithoutCancel(ctx), strings.Join(back, "; "))
		return err
	}, nil
}
