package parquet_test

// errOf is the error of a Writer's Write, for the assertions on it.
func errOf(_ int, err error) error { return err }
