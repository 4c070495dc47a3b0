package elicit

import (
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Check validates a value against the field: its type, then its limits.
// Values are as JSON decodes them (string, float64, bool) and a list of
// strings for a multi-select.
func (f Field) Check(v any) error {
	switch f.Kind {
	case String:
		s, ok := v.(string)
		if !ok {
			return errors.New("want text")
		}
		return f.checkString(s)
	case Number, Integer:
		x, ok := v.(float64)
		if !ok {
			return errors.New("want a number")
		}
		return f.checkNumber(x)
	case Boolean:
		if _, ok := v.(bool); !ok {
			return errors.New("want yes or no")
		}
	case Choice:
		s, ok := v.(string)
		if !ok || f.option(s) < 0 {
			return errors.New("want one of the options")
		}
	case Choices:
		list, ok := v.([]string)
		if !ok {
			return errors.New("want a list of the options")
		}
		return f.checkChoices(list)
	}
	return nil
}

func (f Field) checkString(s string) error {
	n := utf8.RuneCountInString(s)
	switch {
	case f.MinLength != nil && n < *f.MinLength:
		return fmt.Errorf("at least %d characters, got %d", *f.MinLength, n)
	case f.MaxLength != nil && n > *f.MaxLength:
		return fmt.Errorf("at most %d characters, got %d", *f.MaxLength, n)
	case f.Pattern != nil && !f.Pattern.MatchString(s):
		return fmt.Errorf("does not match the pattern %s", f.Pattern)
	}
	switch f.Format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s || a.Name != "" {
			return errors.New("not an email address (name@example.com)")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return errors.New("not an absolute URI (https://example.com/…)")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("not a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("not a date and time (YYYY-MM-DDTHH:MM:SSZ)")
		}
	}
	return nil
}

func (f Field) checkNumber(x float64) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return errors.New("want a finite number")
	case f.Kind == Integer && !isInteger(x):
		return errors.New("want a whole number")
	case f.Minimum != nil && x < *f.Minimum:
		return fmt.Errorf("at least %s", num(*f.Minimum))
	case f.Maximum != nil && x > *f.Maximum:
		return fmt.Errorf("at most %s", num(*f.Maximum))
	}
	return nil
}

func (f Field) checkChoices(list []string) error {
	seen := map[string]bool{}
	for _, s := range list {
		if f.option(s) < 0 {
			return fmt.Errorf("%q is not one of the options", s)
		}
		if seen[s] {
			return fmt.Errorf("%q is picked twice", s)
		}
		seen[s] = true
	}
	switch {
	case f.MinItems != nil && len(list) < *f.MinItems:
		return fmt.Errorf("pick at least %d", *f.MinItems)
	case f.MaxItems != nil && len(list) > *f.MaxItems:
		return fmt.Errorf("pick at most %d", *f.MaxItems)
	}
	return nil
}

// option is the index of the option with value v, or -1.
func (f Field) option(v string) int {
	for i, o := range f.Options {
		if o.Value == v {
			return i
		}
	}
	return -1
}

// Parse turns what the person typed into the field's value and checks it.
// Choices are picked by number or by value; several are separated by
// commas. An empty answer is the caller's to handle (a default, or
// nothing).
func (f Field) Parse(answer string) (any, error) {
	answer = strings.TrimSpace(answer)
	var v any
	switch f.Kind {
	case String:
		v = answer
	case Number, Integer:
		x, err := strconv.ParseFloat(answer, 64)
		if err != nil {
			return nil, errors.New("want a number")
		}
		v = x
	case Boolean:
		switch strings.ToLower(answer) {
		case "y", "yes", "true":
			v = true
		case "n", "no", "false":
			v = false
		default:
			return nil, errors.New("answer yes or no")
		}
	case Choice:
		s, err := f.pick(answer)
		if err != nil {
			return nil, err
		}
		v = s
	case Choices:
		picked := map[string]bool{}
		for _, part := range strings.Split(answer, ",") {
			s, err := f.pick(strings.TrimSpace(part))
			if err != nil {
				return nil, err
			}
			if picked[s] {
				return nil, fmt.Errorf("%q is picked twice", s)
			}
			picked[s] = true
		}
		v = f.sortedValues(picked)
	}
	if err := f.Check(v); err != nil {
		return nil, err
	}
	return v, nil
}

// pick reads one option: its number in the list shown, or its value.
func (f Field) pick(s string) (string, error) {
	if i := f.option(s); i >= 0 {
		return s, nil
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(f.Options) {
		return f.Options[n-1].Value, nil
	}
	return "", fmt.Errorf("%q is not one of the options; answer its number", s)
}

// Label is how the field is named to the person: its title, else its name.
func (f Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Hint says what the field takes: its kind and limits, whether it is
// required.
func (f Field) Hint() string {
	var parts []string
	switch f.Kind {
	case String:
		parts = append(parts, "text")
		if f.Format != "" {
			parts[0] = f.Format
		}
		parts = append(parts, bounds("characters", f.MinLength, f.MaxLength)...)
		if f.Pattern != nil {
			parts = append(parts, "matching "+f.Pattern.String())
		}
	case Number, Integer:
		w := map[Kind]string{Number: "a number", Integer: "a whole number"}[f.Kind]
		switch {
		case f.Minimum != nil && f.Maximum != nil:
			w += fmt.Sprintf(" from %s to %s", num(*f.Minimum), num(*f.Maximum))
		case f.Minimum != nil:
			w += " from " + num(*f.Minimum)
		case f.Maximum != nil:
			w += " up to " + num(*f.Maximum)
		}
		parts = append(parts, w)
	case Boolean:
		parts = append(parts, "yes or no")
	case Choice:
		parts = append(parts, "one of the options, by number")
	case Choices:
		parts = append(parts, "options by number, separated by commas")
		parts = append(parts, bounds("picked", f.MinItems, f.MaxItems)...)
	}
	if f.Required {
		parts = append(parts, "required")
	} else {
		parts = append(parts, "optional")
	}
	return strings.Join(parts, ", ")
}

func bounds(what string, lo, hi *int) []string {
	switch {
	case lo != nil && hi != nil:
		return []string{fmt.Sprintf("%d to %d %s", *lo, *hi, what)}
	case lo != nil:
		return []string{fmt.Sprintf("at least %d %s", *lo, what)}
	case hi != nil:
		return []string{fmt.Sprintf("at most %d %s", *hi, what)}
	}
	return nil
}

// Text is a value as the person sees it: a choice by its title and value.
func (f Field) Text(v any) string {
	switch x := v.(type) {
	case string:
		if f.Kind == Choice {
			return f.optionText(x)
		}
		return x
	case float64:
		return num(x)
	case bool:
		return map[bool]string{true: "yes", false: "no"}[x]
	case []string:
		shown := make([]string, len(x))
		for i, s := range x {
			shown[i] = f.optionText(s)
		}
		return strings.Join(shown, ", ")
	}
	return fmt.Sprint(v)
}

func (f Field) optionText(v string) string {
	if i := f.option(v); i >= 0 && f.Options[i].Title != "" {
		return f.Options[i].Title + " (" + v + ")"
	}
	return v
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
