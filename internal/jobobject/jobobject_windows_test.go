package jobobject

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// The test binary plays the child: with JOBTEST=parent it starts itself as
// a grandchild (JOBTEST=sleep), prints the grandchild's pid and waits for
// it; the grandchild sleeps far past any test.
func TestMain(m *testing.M) {
	switch os.Getenv("JOBTEST") {
	case "parent":
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), "JOBTEST=sleep")
		if err := gc.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Println(gc.Process.Pid)
		gc.Wait()
		os.Exit(0)
	case "sleep":
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startParent starts the parent in a job and returns it, the job and the
// grandchild's pid.
func startParent(t *testing.T) (*exec.Cmd, *Job, uint32) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "JOBTEST=parent")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	job, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("parent said %q", line)
	}
	return cmd, job, uint32(pid)
}

// gone reports whether pid ends within 10s.
func gone(pid uint32) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, pid)
	if err != nil {
		return true // no such process any more
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, 10_000)
	return ev == windows.WAIT_OBJECT_0
}

// Killing the job ends the grandchild too, which killing the child alone
// would leave running.
func TestJob_KillEndsTheWholeTree(t *testing.T) {
	cmd, job, gc := startParent(t)
	defer job.Close()
	if n, err := job.Processes(); err != nil || n != 2 {
		t.Fatalf("job holds %d processes (%v), want 2", n, err)
	}
	if err := job.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !gone(gc) {
		t.Fatalf("grandchild %d still runs", gc)
	}
	if n, _ := job.Processes(); n != 0 {
		t.Errorf("job still holds %d processes", n)
	}
}

// Closing the job's last handle (tai exiting, or dying) ends the tree.
func TestJob_CloseEndsTheWholeTree(t *testing.T) {
	cmd, job, gc := startParent(t)
	if err := job.Close(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !gone(gc) {
		t.Fatalf("grandchild %d still runs", gc)
	}
}

// A command that cannot start leaves no job behind and says why.
func TestStart_MissingProgram(t *testing.T) {
	if _, err := Start(exec.Command(`C:\no\such\program.exe`)); err == nil {
		t.Fatal("started")
	}
}
