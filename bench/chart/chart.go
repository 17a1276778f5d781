// Package chart draws the benchmark's latency distributions as a PNG: one
// panel per micro operation, one box per side, on a log scale of
// microseconds. It reads the JSON that `aixbroker bench --json` writes and
// is used by bench/cmd/benchchart only, so that gonum/plot is not linked
// into aixbroker.
package chart

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/aixbroker/aixbroker/bench"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Size of the whole image, in points (the PNG has 96 pixels per 72 points).
const (
	width  = 14 * vg.Inch
	height = 9 * vg.Inch
	cols   = 3
)

// floor is the smallest latency drawn: a log scale has no zero.
const floor = 0.01 // µs

// Draw writes res's micro latencies to w as a PNG. Sides keep res's order
// and the same colour in every panel; an operation no side measured is
// left out.
func Draw(res bench.Results, w io.Writer) error {
	var plots []*plot.Plot
	for _, op := range res.Micro {
		p, err := panel(op, res.Sides)
		if err != nil {
			return err
		}
		if p != nil {
			plots = append(plots, p)
		}
	}
	if len(plots) == 0 {
		return errors.New("draw latencies: no latencies in the results")
	}
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, p := range plots {
		grid[i/cols][i%cols] = p
	}
	img := vgimg.New(width, height)
	dc := draw.New(img)
	rounds := "rounds"
	if res.Rounds == 1 {
		rounds = "round"
	}
	title := fmt.Sprintf("Latency per operation (log scale): %d %s from %s, load %s → %s. Box: quartiles and median; whiskers: 1.5 IQR; dots: beyond; ×: p99",
		res.Rounds, rounds, res.Started.UTC().Format("2006-01-02 15:04 UTC"), res.LoadAvg[0], res.LoadAvg[1])
	head := draw.TextStyle{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler}
	head.Font.Size = vg.Points(13)
	head.XAlign = draw.XCenter
	head.YAlign = draw.YTop
	dc.FillText(head, vg.Point{X: width / 2, Y: height - vg.Points(8)}, title)
	dc = draw.Crop(dc, 0, 0, 0, -vg.Points(30))
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(12), PadY: vg.Points(12),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	canvases := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("write png: %w", err)
	}
	return nil
}

// panel is one operation's box plots, nil if no side has figures.
func panel(op bench.OpLatencies, sides []string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = op.Op
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = durationTicks{}
	p.X.Tick.Label.Rotation = math.Pi / 8
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	var names []string
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, side := range sides {
		v := op.Latencies[side]
		if len(v) == 0 {
			continue
		}
		vals := make(plotter.Values, len(v))
		for k, x := range v {
			vals[k] = max(x, floor)
		}
		loc := float64(len(names))
		box, err := plotter.NewBoxPlot(vg.Points(22), loc, vals)
		if err != nil {
			return nil, fmt.Errorf("box plot of %s on %s: %w", op.Op, side, err)
		}
		c := plotutil.Color(i)
		box.FillColor = fade(c)
		box.BoxStyle.Color = c
		box.MedianStyle.Width = vg.Points(2)
		box.GlyphStyle.Radius = vg.Points(1)
		box.GlyphStyle.Color = fade(c)
		p99 := percentile(vals, 99)
		mark, err := plotter.NewScatter(plotter.XYs{{X: loc, Y: p99}})
		if err != nil {
			return nil, fmt.Errorf("p99 of %s on %s: %w", op.Op, side, err)
		}
		mark.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
		p.Add(box, mark)
		names = append(names, side)
		for _, x := range vals {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	p.NominalX(names...)
	// Whole decades, so that the log ticks have labels.
	p.Y.Min = math.Pow(10, math.Floor(math.Log10(lo)))
	p.Y.Max = math.Pow(10, math.Ceil(math.Log10(hi)))
	if p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min * 10
	}
	return p, nil
}

// durationTicks are log ticks labelled in µs, ms or s.
type durationTicks struct{}

func (durationTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.LogTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = durationLabel(t.Value)
		}
	}
	return ticks
}

// durationLabel names v µs in the largest unit it is at least one of.
func durationLabel(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 4, 64) + " s"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 4, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " µs"
}

// fade is c at a third of its opacity.
func fade(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x55}
}

// percentile is the nearest-rank percentile q (0–100) of v.
func percentile(v plotter.Values, q float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(math.Ceil(q/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
