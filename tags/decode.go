package tags

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/go-viper/mapstructure/v2"
)

// decodeValue decodes an option's raw value (true for a flag, the text of
// key=value) into a value of type to with mapstructure, whose weak typing
// reads "true", "false", "1" and "0" into a flag and whose hooks read the
// typed values.
func decodeValue(raw any, to reflect.Type) (any, error) {
	out := reflect.New(to)
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		DecodeHook:       decodeHook,
		WeaklyTypedInput: true,
		Result:           out.Interface(),
	})
	if err != nil {
		return nil, err // unreachable: the configuration is fixed
	}
	if err := dec.Decode(raw); err != nil {
		var de *mapstructure.DecodeError
		if errors.As(err, &de) {
			err = de.Unwrap()
		}
		return nil, valueError(err)
	}
	return out.Elem().Interface(), nil
}

// zone is the value of `tz=`, a type of its own so the decode hook can
// validate it.
type zone string

var (
	unitType  = reflect.TypeFor[Unit]()
	zoneType  = reflect.TypeFor[zone]()
	int32Type = reflect.TypeFor[int32]()
)

// decodeHook turns option strings into typed values; a string into bool is
// left to WeaklyTypedInput ("nullable=false").
var decodeHook = mapstructure.ComposeDecodeHookFunc(
	mapstructure.DecodeHookFuncType(needsValue),
	mapstructure.DecodeHookFuncType(unitHook),
	mapstructure.DecodeHookFuncType(zoneHook),
	mapstructure.DecodeHookFuncType(int32Hook),
	mapstructure.DecodeHookFuncType(pinHook),
)

var errNeedsValue = errors.New("needs a value, as in key=value")

// needsValue rejects a key=value option written as a bare flag ("unit"),
// which would otherwise be weakly decoded from true.
func needsValue(from, to reflect.Type, data any) (any, error) {
	if from.Kind() == reflect.Bool && to.Kind() != reflect.Bool {
		return nil, errNeedsValue
	}
	return data, nil
}

func unitHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != unitType {
		return data, nil
	}
	return parseUnit(reflect.ValueOf(data).String())
}

func zoneHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != zoneType {
		return data, nil
	}
	tz := reflect.ValueOf(data).String()
	if _, err := ParseZone(tz); err != nil {
		return nil, err
	}
	return zone(tz), nil
}

func int32Hook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() != reflect.String || to != int32Type {
		return data, nil
	}
	s := reflect.ValueOf(data).String()
	n, err := strconv.ParseInt(s, 10, 32)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return nil, fmt.Errorf("%q is out of range", s)
	case err != nil:
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	return int32(n), nil
}

// valueError rewords mapstructure's error about one option's value; errors
// from the decode hooks are already worded for tags.
func valueError(err error) error {
	var parseErr *mapstructure.ParseError
	if errors.As(err, &parseErr) && parseErr.Expected.Kind() == reflect.Bool {
		return fmt.Errorf("%q is not true or false", fmt.Sprint(parseErr.Value))
	}
	var msErr mapstructure.Error
	if errors.As(err, &msErr) {
		return fmt.Errorf("invalid value: %w", err)
	}
	return err
}
