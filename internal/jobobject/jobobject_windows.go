package jobobject

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Job is a started child's process tree.
type Job struct {
	handle windows.Handle
	pid    uint32
}

var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// Start starts cmd (not yet started) in a job of its own, in a new
// console process group so that [Job.Interrupt] reaches it and not tai.
// cmd.SysProcAttr is kept, with the flags added. On any failure after the
// process was created it is killed and Start returns the error.
func Start(cmd *exec.Cmd) (*Job, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP
	h, err := newJob()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	j := &Job{handle: h, pid: uint32(cmd.Process.Pid)}
	if err := j.adopt(); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		windows.CloseHandle(h)
		return nil, err
	}
	return j, nil
}

// newJob makes a job that kills what it holds when its last handle closes.
func newJob() (windows.Handle, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return 0, fmt.Errorf("setting up a job object: %w", err)
	}
	return h, nil
}

// adopt puts the suspended child in the job, then lets it run.
func (j *Job) adopt() error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_SUSPEND_RESUME, false, j.pid)
	if err != nil {
		return fmt.Errorf("opening process %d: %w", j.pid, err)
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(j.handle, p); err != nil {
		return fmt.Errorf("putting process %d in its job: %w", j.pid, err)
	}
	if st, _, _ := ntResumeProcess.Call(uintptr(p)); st != 0 {
		return fmt.Errorf("resuming process %d: %w", j.pid, windows.NTStatus(st))
	}
	return nil
}

// Interrupt sends CTRL_BREAK_EVENT to the child's console process group,
// Windows' nearest to SIGTERM: node, Python and Go programs end on it by
// default. It reaches nothing when tai has no console.
func (j *Job) Interrupt() error {
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, j.pid)
}

// Kill ends every process in the job at once, with exit code 1.
func (j *Job) Kill() error {
	err := windows.TerminateJobObject(j.handle, 1)
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return nil // the job is already empty and ending
	}
	return err
}

// Processes reports how many processes the job holds now.
func (j *Job) Processes() (int, error) {
	var info basicAccounting
	err := windows.QueryInformationJobObject(j.handle, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return int(info.ActiveProcesses), err
}

// Close kills whatever the job still holds and releases it.
func (j *Job) Close() error {
	return windows.CloseHandle(j.handle)
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// golang.org/x/sys/windows does not declare.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime, ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses, TotalTerminatedProcesses     uint32
}
