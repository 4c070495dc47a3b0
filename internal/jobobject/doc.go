// Package jobobject runs a child process in a Windows Job Object, so that
// ending the job ends every process the child started, however deep, and
// tai closing (or dying) ends them too: the job is made with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and only tai holds its handle.
//
// It is the Windows counterpart of a process group plus package reaper's
// watcher on Linux. The child starts suspended and is resumed only once it
// is in the job, so nothing it starts can escape before the job holds it.
// The package is empty elsewhere.
package jobobject
