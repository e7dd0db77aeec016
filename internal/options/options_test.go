package options_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/options"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// config is a package's config, an option of its readers.
type config struct{ rows int }

func (config) ReadOption() {}

// option is what a package's readers take: a config or a mapper option.
type option interface{ ReadOption() }

func TestSortKeepsTheConfigTheAllocatorApartAndTheMapperOptionsInOrder(t *testing.T) {
	mem := memory.NewGoAllocator()
	s, err := options.Sort[config, mapper.ReadOption]("pkg.Open", []option{
		mapper.Strict(), nil, mapper.Allocator(memory.DefaultAllocator), config{rows: 7}, mapper.ZeroCopy(), mapper.Allocator(mem),
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, config{rows: 7}, s.Config)
	assert.True(t, s.HasConfig)
	assert.Same(t, mem, s.Alloc, "the last allocator given")
	assert.Equal(t, []mapper.ReadOption{mapper.Strict(), mapper.ZeroCopy()}, s.Mapper)
}

func TestSortWithoutAConfigSaysNoneWasGiven(t *testing.T) {
	s, err := options.Sort[config, mapper.ReadOption]("pkg.Open", []option{mapper.Strict()}, nil)
	require.NoError(t, err)
	assert.False(t, s.HasConfig)
	assert.Nil(t, s.Alloc)
}

func TestSortRefusesASecondConfigNamingItsType(t *testing.T) {
	_, err := options.Sort[config, mapper.ReadOption]("pkg.Open", []option{config{}, config{rows: 1}}, nil)
	require.ErrorIs(t, err, mapper.ErrOption)
	assert.ErrorContains(t, err, "pkg.Open does not take two options_test.config values")
}

func TestSortRefusesTheFirstOptionTheEntryDoesNotTake(t *testing.T) {
	_, err := options.Sort[options.None, mapper.ReadOption]("pkg.ReadFile", []mapper.ReadOption{mapper.Strict(), mapper.ZeroCopy(), mapper.SnakeCase()},
		options.Not[mapper.ZeroCopyOption, mapper.ReadOption])
	require.ErrorIs(t, err, mapper.ErrOption)
	var e *mapper.Error
	require.True(t, errors.As(err, &e))
	assert.ErrorContains(t, err, "pkg.ReadFile does not take ZeroCopy")
}

func TestSortRefusesWhatIsNeitherTheConfigNorAMapperOption(t *testing.T) {
	_, err := options.Sort[options.None, mapper.ReadOption]("pkg.Open", []option{config{}}, nil)
	require.ErrorIs(t, err, mapper.ErrOption)
	assert.ErrorContains(t, err, "pkg.Open does not take options_test.config")
}

func TestLastWithoutNotAndOnlyPickOptionsByType(t *testing.T) {
	opts := []mapper.ReadOption{mapper.MaxExpansion(2), mapper.Strict(), mapper.MaxExpansion(5)}
	last, ok := options.Last[mapper.MaxExpansionOption](opts)
	require.True(t, ok)
	assert.EqualValues(t, 5, last.Ratio())
	_, ok = options.Last[mapper.ZeroCopyOption](opts)
	assert.False(t, ok)
	assert.Equal(t, []mapper.ReadOption{mapper.Strict()}, options.Without[mapper.MaxExpansionOption](opts))
	assert.False(t, options.Not[mapper.StrictOption](mapper.ReadOption(mapper.Strict())))
	assert.True(t, options.Not[mapper.StrictOption](mapper.ReadOption(mapper.ZeroCopy())))
	assert.True(t, options.Only[mapper.StrictOption](mapper.ReadOption(mapper.Strict())))
	assert.False(t, options.Only[mapper.StrictOption](mapper.ReadOption(mapper.ZeroCopy())))
}

func TestMetadataIsTheLastSchemaMetadataGiven(t *testing.T) {
	first := arrow.NewMetadata([]string{"k"}, []string{"first"})
	last := arrow.NewMetadata([]string{"k"}, []string{"last"})
	s, err := options.Sort[options.None, mapper.WriteOption]("pkg.NewWriter", []mapper.WriteOption{
		mapper.SchemaMetadata(first), mapper.SnakeCase(), mapper.SchemaMetadata(last),
	}, nil)
	require.NoError(t, err)
	md, ok := s.Metadata()
	require.True(t, ok)
	assert.Equal(t, last, md)

	s, err = options.Sort[options.None, mapper.WriteOption]("pkg.NewWriter", []mapper.WriteOption{mapper.SnakeCase()}, nil)
	require.NoError(t, err)
	_, ok = s.Metadata()
	assert.False(t, ok, "no SchemaMetadata given")
}
