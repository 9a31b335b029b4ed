module hearth

go 1.26
