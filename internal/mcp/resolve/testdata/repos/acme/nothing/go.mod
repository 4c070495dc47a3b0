module example.com/toolbox

go 1.22
